package dev.toolscout.skills;

import dev.toolscout.model.ToolName;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * A skill: a name, documentation that says what it does and when to use it, and the catalog tools it brings
 * (of any source: built-in, MCP upstream, imported). A conversation that activates it gets its tools pinned into
 * every later selection. The rules are those of the Agent Skills format ({@code SKILL.md}), so a folder in that
 * format and a skill made through the API obey the same ones. Immutable.
 *
 * <p>Limits (each an {@link InvalidSkillException} naming the field, the rule and the value): name 1-{@value
 * #MAX_NAME} characters of {@code [a-z0-9-]}, no leading, trailing or double hyphen; description 1-{@value
 * #MAX_DESCRIPTION} characters; documentation at most {@value #MAX_DOCUMENTATION} characters; at most {@value
 * #MAX_TOOLS} tools, each a tool name ({@code source__action}); at most {@value #MAX_RESOURCES} resources.
 *
 * @param name the skill's name, what {@code skills__activate} takes
 * @param description what it does and when to use it (the Agent Skills {@code description}); searched
 * @param documentation the instructions the model gets on activation (the body of {@code SKILL.md}); may be
 *     empty
 * @param tools the full names of the catalog tools it brings, in order, without repeats; a name the catalog
 *     lacks is kept (its server may connect later) and offered once the tool exists
 * @param source where the skill came from
 * @param resources the files beside {@code SKILL.md} in {@code scripts/}, {@code references/} and {@code
 *     assets/}, as relative paths with {@code /}, listed for the model (their contents are not read)
 */
public record Skill(
        String name,
        String description,
        String documentation,
        List<String> tools,
        Source source,
        List<String> resources) {
    public static final int MAX_NAME = 64;
    public static final int MAX_DESCRIPTION = 1024;
    /** About 8,000 tokens: the Agent Skills format asks for a body under 5,000 tokens, so this leaves room. */
    public static final int MAX_DOCUMENTATION = 32_768;

    public static final int MAX_TOOLS = 64;
    public static final int MAX_RESOURCES = 256;
    /** The longest resource path kept. */
    public static final int MAX_RESOURCE_PATH = 512;

    public Skill {
        String shown = name == null ? "?" : name;
        checkName(null, name);
        if (description == null || description.isBlank()) {
            throw new InvalidSkillException(
                    null,
                    shown,
                    "description",
                    "is required: 1-" + MAX_DESCRIPTION
                            + " characters saying what the skill does and when to use it, got: " + quoted(description));
        }
        description = description.strip();
        if (description.length() > MAX_DESCRIPTION) {
            throw new InvalidSkillException(
                    null,
                    shown,
                    "description",
                    "must be at most " + MAX_DESCRIPTION + " characters, got: " + description.length());
        }
        documentation = documentation == null ? "" : documentation.strip();
        if (documentation.length() > MAX_DOCUMENTATION) {
            throw new InvalidSkillException(
                    null,
                    shown,
                    "documentation",
                    "must be at most " + MAX_DOCUMENTATION + " characters, got: " + documentation.length());
        }
        tools = tools == null
                ? List.of()
                : List.copyOf(new LinkedHashSet<>(tools.stream()
                        .map(t -> {
                            if (t == null || !ToolName.isValid(t.strip())) {
                                throw new InvalidSkillException(
                                        null,
                                        shown,
                                        "tools",
                                        "must hold tool names (source__action, matching " + ToolName.WIRE.pattern()
                                                + "), got: " + quoted(t));
                            }
                            return t.strip();
                        })
                        .toList()));
        if (tools.size() > MAX_TOOLS) {
            throw new InvalidSkillException(
                    null, shown, "tools", "must hold at most " + MAX_TOOLS + " tools, got: " + tools.size());
        }
        source = source == null ? Source.API : source;
        resources = resources == null ? List.of() : List.copyOf(resources);
        if (resources.size() > MAX_RESOURCES) {
            throw new InvalidSkillException(
                    null,
                    shown,
                    "resources",
                    "must hold at most " + MAX_RESOURCES + " files, got: " + resources.size());
        }
        for (String r : resources) {
            if (r == null
                    || r.isBlank()
                    || r.length() > MAX_RESOURCE_PATH
                    || r.startsWith("/")
                    || r.contains("\\")
                    || List.of(r.split("/")).contains("..")) {
                throw new InvalidSkillException(
                        null,
                        shown,
                        "resources",
                        "must hold relative paths with '/' of at most " + MAX_RESOURCE_PATH
                                + " characters and no '..', got: " + quoted(r));
            }
        }
    }

    /** A skill with no resources, made through the API. */
    public static Skill of(String name, String description, String documentation, List<String> tools) {
        return new Skill(name, description, documentation, tools, Source.API, List.of());
    }

    /**
     * Checks a skill name against the Agent Skills rules.
     *
     * @param file where it was read, or {@code null}
     * @throws InvalidSkillException naming the rule it breaks and the value
     */
    public static void checkName(String file, String name) {
        String shown = name == null ? "?" : name;
        String rule = nameProblem(name);
        if (rule != null) {
            throw new InvalidSkillException(file, shown, "name", rule);
        }
    }

    /** Why {@code name} is not a skill name, or {@code null} when it is one. */
    public static String nameProblem(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_NAME) {
            return "must be 1-" + MAX_NAME + " characters, got: "
                    + (name == null ? "nothing" : name.length() + " (" + quoted(abbreviate(name)) + ")");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-')) {
                return "must hold only lower-case letters a-z, digits and hyphens, got: " + quoted(name);
            }
        }
        if (name.startsWith("-") || name.endsWith("-")) {
            return "must not start or end with a hyphen, got: " + quoted(name);
        }
        if (name.contains("--")) {
            return "must not hold two hyphens in a row, got: " + quoted(name);
        }
        return null;
    }

    /** This skill with another source (a folder's skill as stored). */
    public Skill withSource(Source s) {
        return new Skill(name, description, documentation, tools, s, resources);
    }

    private static String abbreviate(String s) {
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }

    private static String quoted(String s) {
        return s == null ? "nothing" : "'" + abbreviate(s) + "'";
    }

    /**
     * Where a skill came from, for {@code skills list} and for replacing a folder's skill when it is read again.
     *
     * @param kind what made it
     * @param location the folder or file it was read from, or {@code null} for the API
     */
    public record Source(Kind kind, String location) {
        public static final Source API = new Source(Kind.API, null);

        public Source {
            Objects.requireNonNull(kind, "kind");
            location = location == null || location.isBlank() ? null : location;
        }

        /** What made a skill. */
        public enum Kind {
            /** A folder in the Agent Skills format ({@code SKILL.md}). */
            FOLDER,
            /** The {@code skills} section of a catalog file. */
            CATALOG_FILE,
            /** The Java or HTTP API. */
            API
        }

        @Override
        public String toString() {
            return kind.name().toLowerCase(java.util.Locale.ROOT) + (location == null ? "" : " " + location);
        }
    }
}

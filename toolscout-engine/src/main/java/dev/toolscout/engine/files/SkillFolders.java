package dev.toolscout.engine.files;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.skills.InvalidSkillException;
import dev.toolscout.skills.Skill;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads skills from folders in the Agent Skills format (agentskills.io): a folder holding {@code SKILL.md},
 * whose YAML front matter (between {@code ---} lines) gives {@code name} and {@code description} and,
 * optionally, {@code allowed-tools} (here: the catalog tools the skill brings, separated by spaces or as a list),
 * {@code license}, {@code compatibility} and {@code metadata}; the Markdown after it is the skill's
 * documentation. Files in {@code scripts/}, {@code references/} and {@code assets/} are listed (not read).
 *
 * <p>The format's rules are checked, each failure an {@link InvalidSkillException} naming the {@code SKILL.md},
 * the field, the rule and the value: the name 1-64 characters of {@code [a-z0-9-]} with no leading, trailing or
 * double hyphen, and equal to the folder's name; the description 1-1024 characters. Front matter keys the
 * format does not define are skipped with a warning on the {@code dev.toolscout.engine.files} logger.
 *
 * <p>Stateless and thread-safe.
 */
public final class SkillFolders {
    /** The file a skill folder holds. */
    public static final String SKILL_FILE = "SKILL.md";
    /** The largest {@code SKILL.md} read (1 MiB): the format asks for a body of a few hundred lines. */
    public static final long MAX_FILE_BYTES = 1024 * 1024;
    /** The format's limit on {@code compatibility}. */
    public static final int MAX_COMPATIBILITY = 500;
    /** The most skill folders one directory of skills is read for. */
    public static final int MAX_FOLDERS = 1_000;

    private static final Logger LOG = LoggerFactory.getLogger("dev.toolscout.engine.files");
    private static final List<String> RESOURCE_DIRS = List.of("scripts", "references", "assets");
    private static final Set<String> KNOWN_KEYS =
            Set.of("name", "description", "allowed-tools", "license", "compatibility", "metadata");
    /** How deep resource folders are listed. */
    private static final int MAX_DEPTH = 8;

    private SkillFolders() {}

    /**
     * The skills under {@code dir}: the one it is (when it holds {@code SKILL.md}) or, for a directory of skills
     * (such as {@code ~/.claude/skills}), one per subfolder that holds {@code SKILL.md}, in name order.
     *
     * @throws InvalidSkillException when a folder is not a skill in the format or breaks a rule (nothing is read
     *     further)
     * @throws IllegalArgumentException when {@code dir} is no directory, or holds no skill
     */
    public static List<Skill> loadAll(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + ": not a directory (give a skill folder, which holds " + SKILL_FILE
                    + ", or a folder of skill folders)");
        }
        if (Files.isRegularFile(dir.resolve(SKILL_FILE))) {
            return List.of(load(dir));
        }
        List<Path> folders;
        try (Stream<Path> s = Files.list(dir)) {
            folders = s.filter(p -> Files.isRegularFile(p.resolve(SKILL_FILE)))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new IllegalArgumentException(dir + ": cannot be listed: " + e.getMessage(), e);
        }
        if (folders.isEmpty()) {
            throw new IllegalArgumentException(dir + ": holds no " + SKILL_FILE + ", nor do its subfolders");
        }
        if (folders.size() > MAX_FOLDERS) {
            throw new IllegalArgumentException(dir + ": holds " + folders.size() + " skill folders, more than the "
                    + MAX_FOLDERS + " read at once");
        }
        List<Skill> out = new ArrayList<>(folders.size());
        folders.forEach(f -> out.add(load(f)));
        return out;
    }

    /**
     * The skill in {@code folder}.
     *
     * @throws InvalidSkillException naming {@code SKILL.md}, the field, the rule and the value
     */
    public static Skill load(Path folder) {
        Path file = folder.resolve(SKILL_FILE);
        String where = file.toString();
        String folderName = folder.toAbsolutePath().normalize().getFileName() == null
                ? ""
                : folder.toAbsolutePath().normalize().getFileName().toString();
        String text = read(file, where);
        // the front matter: the first line is ---, and it ends at the next line that is ---
        List<String> lines = text.lines().toList();
        if (lines.isEmpty() || !lines.get(0).strip().equals("---")) {
            throw new InvalidSkillException(
                    where,
                    folderName,
                    "front matter",
                    "is required: " + SKILL_FILE + " must "
                            + "start with a line '---', the YAML fields name and description, and another line '---'");
        }
        int end = -1;
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).strip().equals("---")) {
                end = i;
                break;
            }
        }
        if (end < 0) {
            throw new InvalidSkillException(
                    where, folderName, "front matter", "is not closed: no line '---' after " + "the opening one");
        }
        JsonNode fm = yaml(String.join("\n", lines.subList(1, end)), where, folderName, end);
        String name = string(fm, "name", where, folderName);
        String skill = name == null ? folderName : name;
        if (name == null) {
            throw new InvalidSkillException(
                    where,
                    skill,
                    "name",
                    "is required in the front matter: the skill's name, " + "the same as its folder's ('" + folderName
                            + "')");
        }
        Skill.checkName(where, name);
        if (!name.equals(folderName)) {
            throw new InvalidSkillException(
                    where, name, "name", "must equal the folder name '" + folderName + "', got: '" + name + "'");
        }
        String description = string(fm, "description", where, skill);
        String compatibility = string(fm, "compatibility", where, skill);
        if (compatibility != null && compatibility.length() > MAX_COMPATIBILITY) {
            throw new InvalidSkillException(
                    where,
                    skill,
                    "compatibility",
                    "must be at most " + MAX_COMPATIBILITY + " characters, got: " + compatibility.length());
        }
        JsonNode metadata = fm.get("metadata");
        if (metadata != null && !metadata.isNull() && !metadata.isObject()) {
            throw new InvalidSkillException(
                    where, skill, "metadata", "must be a mapping of keys to values, got: " + kind(metadata));
        }
        fm.fieldNames().forEachRemaining(k -> {
            if (!KNOWN_KEYS.contains(k)) {
                LOG.warn(
                        "{}: skill '{}': front matter key '{}' is not an Agent Skills field; skipped (known: {})",
                        where,
                        skill,
                        k,
                        String.join(", ", KNOWN_KEYS.stream().sorted().toList()));
            }
        });
        List<String> tools = tools(fm.get("allowed-tools"), where, skill);
        String body = String.join("\n", lines.subList(end + 1, lines.size()));
        try {
            return new Skill(
                    name,
                    description,
                    body,
                    tools,
                    new Skill.Source(
                            Skill.Source.Kind.FOLDER,
                            folder.toAbsolutePath().normalize().toString()),
                    resources(folder, where, skill));
        } catch (InvalidSkillException e) {
            // the record calls it tools; the file's reader knows it as allowed-tools
            throw new InvalidSkillException(
                    where, skill, e.field().equals("tools") ? "allowed-tools" : e.field(), e.rule());
        }
    }

    private static String read(Path file, String where) {
        try {
            long size = Files.size(file);
            if (size > MAX_FILE_BYTES) {
                throw new InvalidSkillException(
                        where, "?", SKILL_FILE, "must be at most " + MAX_FILE_BYTES + " bytes, got: " + size);
            }
            byte[] bytes = Files.readAllBytes(file);
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new InvalidSkillException(where, "?", SKILL_FILE, "must be UTF-8 text: " + e.getMessage());
        } catch (IOException e) {
            throw new IllegalArgumentException(where + ": cannot be read: " + e, e);
        }
    }

    private static JsonNode yaml(String frontMatter, String where, String skill, int lines) {
        JsonNode n;
        try {
            n = CatalogFormat.YAML.read(frontMatter.getBytes(StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw new InvalidSkillException(
                    where,
                    skill,
                    "front matter",
                    "is not valid YAML (line "
                            + (e.getLocation() == null ? "?" : e.getLocation().getLineNr() + 1) + " of the file): "
                            + e.getOriginalMessage());
        } catch (IOException e) {
            throw new InvalidSkillException(where, skill, "front matter", "could not be read as YAML: " + e);
        }
        if (n == null || !n.isObject()) {
            throw new InvalidSkillException(
                    where,
                    skill,
                    "front matter",
                    "must be a YAML mapping with name and " + "description (lines 2-" + lines + "), got: "
                            + (n == null ? "nothing" : kind(n)));
        }
        return n;
    }

    private static String string(JsonNode fm, String field, String where, String skill) {
        JsonNode v = fm.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isTextual()) {
            throw new InvalidSkillException(where, skill, field, "must be a string, got: " + kind(v) + " " + shown(v));
        }
        return v.asText();
    }

    private static List<String> tools(JsonNode v, String where, String skill) {
        if (v == null || v.isNull()) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        if (v.isTextual()) {
            for (String t : v.asText().strip().split("[\\s,]+")) {
                if (!t.isEmpty()) {
                    out.add(t);
                }
            }
        } else if (v.isArray()) {
            for (JsonNode t : v) {
                if (!t.isTextual()) {
                    throw new InvalidSkillException(
                            where, skill, "allowed-tools", "must hold tool names, got: " + kind(t) + " " + shown(t));
                }
                out.add(t.asText());
            }
        } else {
            throw new InvalidSkillException(
                    where,
                    skill,
                    "allowed-tools",
                    "must be tool names separated by spaces, or " + "a list of them, got: " + kind(v));
        }
        if (out.size() > Skill.MAX_TOOLS) {
            throw new InvalidSkillException(
                    where,
                    skill,
                    "allowed-tools",
                    "must name at most " + Skill.MAX_TOOLS + " tools, got: " + out.size());
        }
        return out;
    }

    /** The files in the resource folders, as paths relative to the skill folder; symbolic links are not followed. */
    private static List<String> resources(Path folder, String where, String skill) {
        List<String> all = new ArrayList<>();
        for (String d : RESOURCE_DIRS) {
            Path dir = folder.resolve(d);
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                continue;
            }
            // no FOLLOW_LINKS: a link out of the folder is not listed as the skill's
            try (Stream<Path> s = Files.walk(dir, MAX_DEPTH)) {
                s.filter(x -> Files.isRegularFile(x, LinkOption.NOFOLLOW_LINKS))
                        .map(p -> folder.relativize(p).toString().replace('\\', '/'))
                        .filter(rel -> rel.length() <= Skill.MAX_RESOURCE_PATH)
                        .forEach(all::add);
            } catch (IOException e) {
                throw new IllegalArgumentException(
                        where + ": skill '" + skill + "': " + d + "/ cannot be listed: " + e, e);
            }
        }
        all.sort(null);
        if (all.size() > Skill.MAX_RESOURCES) {
            LOG.warn(
                    "{}: skill '{}': {} resource files, the first {} listed",
                    where,
                    skill,
                    all.size(),
                    Skill.MAX_RESOURCES);
            return List.copyOf(all.subList(0, Skill.MAX_RESOURCES));
        }
        return all;
    }

    private static String kind(JsonNode n) {
        return n.isObject()
                ? "a mapping"
                : n.isArray()
                        ? "a list"
                        : n.isNumber()
                                ? "a number"
                                : n.isBoolean()
                                        ? "a boolean"
                                        : n.isTextual()
                                                ? "a string"
                                                : n.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
    }

    private static String shown(JsonNode n) {
        String s = n.toString();
        return s.length() > 80 ? s.substring(0, 77) + "..." : s;
    }
}

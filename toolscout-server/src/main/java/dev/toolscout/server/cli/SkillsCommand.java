package dev.toolscout.server.cli;

import dev.toolscout.engine.ToolCallResult;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.skills.Skill;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code toolscout skills add|list|remove|activate}: the data directory's skills (docs/SKILLS.md). */
@Command(
        name = "skills",
        mixinStandardHelpOptions = true,
        description =
                "Skills: named instructions with the tools they bring, activated per conversation (docs/SKILLS.md).",
        subcommands = {
            SkillsCommand.Add.class,
            SkillsCommand.ListSkills.class,
            SkillsCommand.Remove.class,
            SkillsCommand.Activate.class
        })
final class SkillsCommand {
    @Command(
            name = "add",
            mixinStandardHelpOptions = true,
            description =
                    "Add (or update) the skills of a folder in the Agent Skills format (a SKILL.md with name and "
                            + "description front matter; allowed-tools names the tools it brings), or of a folder of such folders.")
    static final class Add implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "DIR", description = "A skill folder, or a folder of skill folders.")
        Path dir;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (ToolScout scout =
                    EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
                List<Skill> added = scout.addSkills(dir);
                PrintWriter out = spec.commandLine().getOut();
                for (Skill s : added) {
                    out.printf(
                            Locale.ROOT,
                            "Added skill %s (%d tool%s): %s%s%n",
                            s.name(),
                            s.tools().size(),
                            s.tools().size() == 1 ? "" : "s",
                            String.join(", ", s.tools()),
                            missing(scout.missingTools(s.name()), s));
                }
                out.flush();
            }
            return 0;
        }
    }

    /**
     * What {@code skills add} says of a skill whose tools the catalog lacks: which, and whether it is offered at all.
     */
    static String missing(List<String> missing, Skill s) {
        if (missing.isEmpty()) {
            return "";
        }
        return missing.size() == s.tools().size()
                ? "; not offered until its tools exist: missing tools: " + String.join(", ", missing)
                : "; missing tools: " + String.join(", ", missing) + " (offered with the others)";
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "List the skills the principal may see, with the tools they bring.")
    static final class ListSkills implements Callable<Integer> {
        @Mixin
        PrincipalOptions who;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (ToolScout scout =
                    EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
                List<Skill> skills = scout.skills(who.principal());
                List<Skill> unoffered = scout.unofferedSkills(who.principal());
                PrintWriter out = spec.commandLine().getOut();
                int all = skills.size() + unoffered.size();
                out.printf(
                        Locale.ROOT,
                        "%d skill%s%s%n",
                        all,
                        all == 1 ? "" : "s",
                        unoffered.isEmpty() ? "" : " (" + unoffered.size() + " not offered: its tools are missing)");
                java.util.List<Skill> listed = new java.util.ArrayList<>(skills);
                listed.addAll(unoffered);
                listed.sort(java.util.Comparator.comparing(Skill::name));
                for (Skill s : listed) {
                    boolean offered = !unoffered.contains(s);
                    List<String> missing = scout.missingTools(s.name());
                    out.printf(
                            Locale.ROOT,
                            "%n%s — %s%n  tools: %s%n%s  from: %s%n",
                            s.name(),
                            s.description(),
                            !offered ? "(none)" : s.tools().isEmpty() ? "(none)" : String.join(", ", s.tools()),
                            missing.isEmpty()
                                    ? ""
                                    : "  " + (offered ? "" : "not offered: ") + "missing tools: "
                                            + String.join(", ", missing) + "\n",
                            s.source());
                }
                out.flush();
            }
            return 0;
        }
    }

    @Command(name = "remove", mixinStandardHelpOptions = true, description = "Remove skills by name.")
    static final class Remove implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "NAME", description = "Skill names.")
        List<String> names;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (ToolScout scout =
                    EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
                java.util.Set<String> stored = scout.maintenance().skillNames();
                List<String> missing =
                        names.stream().filter(n -> !stored.contains(n)).toList();
                if (!missing.isEmpty()) {
                    throw new IllegalArgumentException("no skill named "
                            + String.join(
                                    ", ",
                                    missing.stream().map(n -> "'" + n + "'").toList()) + " in "
                            + scout.maintenance().dataDir() + "; nothing was removed");
                }
                names.forEach(scout::removeSkill);
                spec.commandLine()
                        .getOut()
                        .printf(Locale.ROOT, "Removed %d skill%s.%n", names.size(), names.size() == 1 ? "" : "s");
                spec.commandLine().getOut().flush();
            }
            return 0;
        }
    }

    @Command(
            name = "activate",
            mixinStandardHelpOptions = true,
            description = "Activate a skill in a conversation, as a model calling skills__activate does: its tools are "
                    + "pinned into the conversation's next selections. Prints what the model would get back.")
    static final class Activate implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME", description = "The skill's name.")
        String name;

        @Option(names = "--conversation", required = true, paramLabel = "ID", description = "The conversation.")
        String conversation;

        @Mixin
        PrincipalOptions who;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (ToolScout scout =
                    EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
                ToolCallResult r = scout.callMetaTool(
                        who.principal(),
                        conversation,
                        "skills__activate",
                        Json.MAPPER.createObjectNode().put("skill_name", name));
                if (r.isError()) {
                    throw new IllegalArgumentException(r.error());
                }
                spec.commandLine().getOut().println(Json.pretty(r.output()));
                spec.commandLine().getOut().flush();
            }
            return 0;
        }
    }
}

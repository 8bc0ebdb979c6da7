package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.access.AccessPolicyJson;
import dev.toolscout.access.PolicyCheck;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.engine.files.PolicyFiles;
import dev.toolscout.git.GitIndexer;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code toolscout policy check|set|show}: the access policy stored in the data directory. A policy is checked
 * against the catalog before it is stored: a rule that matches no known tool, source, category or principal
 * changes nothing, so a misspelling would leave access wider than meant without a word.
 */
@Command(
        name = "policy",
        mixinStandardHelpOptions = true,
        description = "Check, store or show the access policy (see docs/ACCESS_POLICY.md).",
        subcommands = {PolicyCommand.Check.class, PolicyCommand.Save.class, PolicyCommand.Show.class})
final class PolicyCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ToolScoutCli.BAD_INPUT;
    }

    /** Who is known besides the catalog: the principals of an API keys file. */
    static final class KnownOptions {
        @Option(
                names = "--api-keys",
                paramLabel = "FILE",
                description = "API keys file (as for serve): its users, groups and spaces are the known principals. "
                        + "Without it, user and group rules are not checked; space rules are checked against the policy's "
                        + "own space tree.")
        Path apiKeys;

        @Option(
                names = "--git-repo",
                paramLabel = "PATH",
                description = "The git repository serve --git-repo follows: its tool git__search (source git, "
                        + "category code) is known, so a rule on it matches (docs/INDEXING.md).")
        Path gitRepo;

        /**
         * The rules of {@code policy} that match nothing in the catalog, among the keys file's principals or (with
         * {@code --git-repo}) in the repository's tool.
         */
        List<PolicyCheck.Unmatched> unmatched(ToolScout scout, AccessPolicy policy) throws IOException {
            if (gitRepo == null) {
                return catalogUnmatched(scout, policy);
            }
            GitIndexer.checkRepository(gitRepo);
            ToolSpec git = GitIndexer.SPEC;
            return catalogUnmatched(scout, policy).stream()
                    .filter(u -> !(u.field().equals("tool") && u.value().equals(git.fullName())
                            || u.field().equals("source")
                                    && u.value().equals(git.name().source())
                            || u.field().equals("category") && u.value().equals(git.category())))
                    .toList();
        }

        private List<PolicyCheck.Unmatched> catalogUnmatched(ToolScout scout, AccessPolicy policy) throws IOException {
            if (apiKeys == null) {
                return scout.checkPolicy(policy, null, null, null);
            }
            Set<String> users = new TreeSet<>();
            Set<String> groups = new TreeSet<>();
            Set<String> spaces = new TreeSet<>();
            if (!Files.isRegularFile(apiKeys)) {
                throw new IllegalArgumentException("API keys file not found: " + apiKeys);
            }
            JsonNode root;
            try {
                root = Json.MAPPER.readTree(apiKeys.toFile());
            } catch (com.fasterxml.jackson.core.JsonProcessingException ex) {
                // not the parser's message: it may quote a key
                throw new IllegalArgumentException("API keys file " + apiKeys + " is not JSON", ex);
            }
            for (JsonNode k : root == null ? Json.MAPPER.createArrayNode() : root.path("keys")) {
                addText(k, "user", users);
                addText(k, "group", groups);
                addText(k, "space", spaces);
            }
            return scout.checkPolicy(policy, users, groups, spaces);
        }

        private static void addText(JsonNode key, String field, Set<String> into) {
            if (key.path(field).isTextual() && !key.get(field).asText().isBlank()) {
                into.add(key.get(field).asText());
            }
        }
    }

    /** Prints each unmatched rule on stderr, prefixed with where the policy came from. */
    static void report(PrintWriter err, String where, List<PolicyCheck.Unmatched> unmatched) {
        for (PolicyCheck.Unmatched u : unmatched) {
            err.println(where + ": " + u.message());
        }
        err.flush();
    }

    @Command(
            name = "check",
            mixinStandardHelpOptions = true,
            description =
                    "Report every rule of the policy (FILE or --policy FILE, else the stored one) that matches no "
                            + "known tool, source, category or principal. Exit code 2 when any does. Stores nothing.")
    static final class Check implements Callable<Integer> {
        @Parameters(
                index = "0",
                arity = "0..1",
                paramLabel = "FILE",
                description = "Access policy file to check (the same as --policy FILE).")
        Path file;

        @Mixin
        EngineOptions engine;

        @Mixin
        KnownOptions principals;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            if (file != null) {
                if (engine.policy != null && !engine.policy.equals(file)) {
                    throw new IllegalArgumentException(
                            "give the policy to check once, as FILE or as --policy, not both");
                }
                engine.policy = file;
            }
            // read here rather than given to the engine, which would log each unmatched rule a second time
            AccessPolicy fromFile = engine.policy == null ? null : PolicyFiles.read(engine.policy);
            try (ToolScout scout = EngineOptions.openForReading(engine.options().withoutPolicy(), err, null)) {
                AccessPolicy policy;
                String where;
                if (fromFile != null) {
                    policy = fromFile;
                    where = engine.policy.toString();
                } else {
                    // whether one is stored at all is the engine's to say: the API's policy() is allow-all then
                    Optional<AccessPolicy> stored = scout.maintenance().storedPolicy();
                    if (stored.isEmpty()) {
                        out.println("No policy is stored in " + engine.resolveDataDir()
                                + ": every tool that is not blocked "
                                + "is visible to everyone. Check a file with --policy FILE.");
                        out.flush();
                        return 0;
                    }
                    policy = stored.get();
                    where = "stored policy";
                }
                List<PolicyCheck.Unmatched> unmatched = principals.unmatched(scout, policy);
                if (!unmatched.isEmpty()) {
                    report(err, where, unmatched);
                    err.println(where + ": " + unmatched.size() + " of "
                            + policy.rules().size() + " rules match nothing in "
                            + "the catalog of " + scout.size() + " tools"
                            + (principals.apiKeys == null ? " (users and groups not checked: no --api-keys)" : "")
                            + "; 'policy set --allow-unmatched' stores such a policy for tools that will arrive later");
                    err.flush();
                    return ToolScoutCli.BAD_INPUT;
                }
                out.println(where + ": all " + policy.rules().size() + " rules match the catalog of " + scout.size()
                        + " tools"
                        + (principals.apiKeys == null ? " (users and groups not checked: no --api-keys)" : ""));
                out.flush();
                return 0;
            }
        }
    }

    @Command(
            name = "set",
            mixinStandardHelpOptions = true,
            description = "Check the policy FILE and store it in the data directory, where later commands use it. "
                    + "Refused (exit code 2, nothing stored) when a rule matches nothing, unless --allow-unmatched.")
    static final class Save implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "FILE", description = "Access policy file (JSON, or YAML by extension).")
        Path file;

        @Option(
                names = "--allow-unmatched",
                description =
                        "Store the policy even when rules match nothing yet (tools or principals that will arrive "
                                + "later); the unmatched rules are still listed.")
        boolean allowUnmatched;

        @Mixin
        EngineOptions engine;

        @Mixin
        KnownOptions principals;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            if (engine.policy != null) {
                throw new IllegalArgumentException("give the policy to store once, as FILE, not also as --policy");
            }
            AccessPolicy policy = PolicyFiles.read(file);
            PrintWriter err = spec.commandLine().getErr();
            try (ToolScout scout = engine.options().builder().build()) {
                List<PolicyCheck.Unmatched> unmatched = principals.unmatched(scout, policy);
                report(err, file.toString(), unmatched);
                if (!unmatched.isEmpty() && !allowUnmatched) {
                    err.println(
                            file + ": not stored: " + unmatched.size() + " rule(s) match nothing; fix them, or give "
                                    + "--allow-unmatched to store the policy for tools that will arrive later");
                    err.flush();
                    return ToolScoutCli.BAD_INPUT;
                }
                scout.setPolicy(policy);
                PrintWriter out = spec.commandLine().getOut();
                out.println("Stored the policy from " + file + " ("
                        + policy.rules().size() + " rules"
                        + (unmatched.isEmpty() ? "" : ", " + unmatched.size() + " matching nothing yet") + ") in "
                        + engine.resolveDataDir() + ".");
                out.flush();
                return 0;
            }
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Print the stored policy as JSON.")
    static final class Show implements Callable<Integer> {
        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            // the stored policy, whatever --policy says: without an override, the API's policy is the stored one
            try (ToolScout scout = EngineOptions.openForReading(
                    engine.options().withoutPolicy(), spec.commandLine().getErr(), null)) {
                AccessPolicy p = scout.policy();
                spec.commandLine().getOut().println(Json.pretty(AccessPolicyJson.toJson(p)));
                spec.commandLine().getOut().flush();
                return 0;
            }
        }
    }
}

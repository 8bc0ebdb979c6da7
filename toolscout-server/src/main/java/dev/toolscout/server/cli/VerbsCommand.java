package dev.toolscout.server.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.CatalogChange;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.engine.Verbs;
import dev.toolscout.engine.files.CatalogFiles;
import dev.toolscout.verbs.NovelVerb;
import dev.toolscout.verbs.VerbJson;
import dev.toolscout.verbs.VerbManifest;
import dev.toolscout.verbs.VerbManifestJson;
import dev.toolscout.verbs.VerbResolver;
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

/**
 * {@code toolscout verbs register|list|discover|resolve|remove}: action verbs (seed 002, docs/VERBS.md) in the data
 * directory's catalog. Discovery and resolution print the JSON the HTTP API answers ({@link VerbJson}). list,
 * discover and resolve only read, so they work beside a running {@code serve} (read-only), as find does.
 */
@Command(
        name = "verbs",
        mixinStandardHelpOptions = true,
        description = "Register, list and remove action verbs, discover the verbs and tools that match a description,"
                + " and resolve an unknown verb to one (see docs/VERBS.md).",
        subcommands = {
            VerbsCommand.Register.class,
            VerbsCommand.ListVerbs.class,
            VerbsCommand.Discover.class,
            VerbsCommand.Resolve.class,
            VerbsCommand.Remove.class
        })
final class VerbsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ToolScoutCli.BAD_INPUT;
    }

    @Command(
            name = "register",
            mixinStandardHelpOptions = true,
            description = "Add or replace the verbs of manifest FILEs (JSON or YAML: a manifest, an array of them or "
                    + "{\"verbs\": [...]}). Every file is checked first: a bad one registers nothing.")
    static final class Register implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "FILE", description = "Verb manifest files.")
        List<Path> files;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            List<VerbManifest> manifests = CatalogFiles.readVerbs(files);
            try (ToolScout scout =
                    EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
                CatalogChange c = scout.verbs().register(manifests);
                PrintWriter out = spec.commandLine().getOut();
                out.printf(
                        Locale.ROOT,
                        "Registered %d verb%s from %d file(s): %d added, %d updated, %d unchanged. "
                                + "Catalog now holds %d tools (version %d).%n",
                        manifests.size(),
                        manifests.size() == 1 ? "" : "s",
                        files.size(),
                        c.added(),
                        c.updated(),
                        manifests.size() - c.added() - c.updated(),
                        scout.size(),
                        c.version());
                out.flush();
            }
            return 0;
        }
    }

    @Command(
            name = "list",
            mixinStandardHelpOptions = true,
            description = "Print the verbs you may see, by name, as manifests (JSON).")
    static final class ListVerbs implements Callable<Integer> {
        @Mixin
        PrincipalOptions who;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (ToolScout scout = EngineOptions.openForReading(
                    engine.options(), spec.commandLine().getErr(), null)) {
                List<VerbManifest> verbs = scout.verbs().list(who.principal());
                ObjectNode out = Json.MAPPER.createObjectNode();
                out.put("count", verbs.size());
                ArrayNode a = out.putArray("verbs");
                verbs.forEach(v -> a.add(VerbManifestJson.toJson(v)));
                return Results.print(spec, out);
            }
        }
    }

    @Command(
            name = "discover",
            mixinStandardHelpOptions = true,
            description =
                    "The verbs and tools you may see that best match a description, best first, each with its "
                            + "confidence (the cosine similarity of the two descriptions) and the threshold a substitution needs (JSON).")
    static final class Discover implements Callable<Integer> {
        @Parameters(
                index = "0",
                paramLabel = "TEXT",
                description =
                        "What the verb should do, e.g. \"look something up on the internet\"; - reads standard input.")
        String text;

        @Option(names = "--limit", paramLabel = "N", description = "Most candidates, 1-50 (default 10).")
        Integer limit;

        @Mixin
        PrincipalOptions who;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            int n = checkLimit(limit);
            String description = MessageArgument.resolve(text, stdin(spec), "TEXT");
            try (ToolScout scout = EngineOptions.openForReading(
                    engine.options().withModelPreload(), spec.commandLine().getErr(), null)) {
                Verbs verbs = scout.verbs();
                return Results.print(
                        spec,
                        VerbJson.discovery(
                                description,
                                verbs.resolver().modelId(),
                                verbs.resolver().threshold(),
                                verbs.discover(who.principal(), description, n)));
            }
        }
    }

    @Command(
            name = "resolve",
            mixinStandardHelpOptions = true,
            description = "Whether an existing verb or tool can stand in for an unknown verb: a substitution when the "
                    + "best candidate's confidence reaches the embedding model's calibrated threshold, else no match with "
                    + "the nearest candidates (JSON; docs/VERBS.md).")
    static final class Resolve implements Callable<Integer> {
        @Option(names = "--verb", paramLabel = "NAME", description = "The unknown verb's name, e.g. FETCH_WEB_PAGE.")
        String verb;

        @Option(names = "--description", paramLabel = "TEXT", description = "What it should do.")
        String description;

        @Option(names = "--input", paramLabel = "NAME", description = "An input's name (repeatable).")
        List<String> inputs;

        @Mixin
        PrincipalOptions who;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            NovelVerb novel = new NovelVerb(verb, description, inputs);
            try (ToolScout scout = EngineOptions.openForReading(
                    engine.options().withModelPreload(), spec.commandLine().getErr(), null)) {
                return Results.print(spec, VerbJson.resolution(scout.verbs().resolve(who.principal(), novel)));
            }
        }
    }

    @Command(
            name = "remove",
            mixinStandardHelpOptions = true,
            description = "Remove verbs by name (SEARCH_WEB), all or nothing: an unknown one removes none.")
    static final class Remove implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "VERB", description = "Verbs, e.g. SEARCH_WEB.")
        List<String> verbs;

        @Mixin
        EngineOptions engine;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            try (ToolScout scout =
                    EngineOptions.open(engine.options(), spec.commandLine().getErr())) {
                int removed = scout.verbs().remove(verbs).removed();
                PrintWriter out = spec.commandLine().getOut();
                out.printf(
                        Locale.ROOT,
                        "Removed %d verb%s. Catalog now holds %d tools (version %d).%n",
                        removed,
                        removed == 1 ? "" : "s",
                        scout.size(),
                        scout.maintenance().catalogVersion());
                out.flush();
            }
            return 0;
        }
    }

    /** A usage error (exit 2), checked before anything opens, like find's --limit. */
    static int checkLimit(Integer limit) {
        if (limit == null) {
            return VerbResolver.DEFAULT_LIMIT;
        }
        if (limit < 1 || limit > VerbResolver.MAX_LIMIT) {
            throw new IllegalArgumentException(
                    "--limit must be between 1 and " + VerbResolver.MAX_LIMIT + ", got: " + limit);
        }
        return limit;
    }

    /** The standard input the command line was run with. */
    private static java.io.InputStream stdin(CommandSpec spec) {
        CommandSpec root = spec;
        while (root.parent() != null) {
            root = root.parent();
        }
        return ((ToolScoutCli) root.userObject()).stdin;
    }
}

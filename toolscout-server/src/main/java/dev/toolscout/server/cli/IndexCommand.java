package dev.toolscout.server.cli;

import dev.toolscout.agent.openapi.OpenApiAuth;
import dev.toolscout.agent.openapi.OpenApiImport;
import dev.toolscout.agent.openapi.OpenApiImporter;
import dev.toolscout.agent.openapi.OpenApiSource;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.engine.CatalogChange;
import dev.toolscout.engine.Maintenance;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.engine.files.CatalogFiles;
import dev.toolscout.mcp.secret.SecretBox;
import dev.toolscout.model.ToolSpec;
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

/** {@code toolscout index FILE...}: adds or updates catalog files' tools in the data directory. */
@Command(
        name = "index",
        mixinStandardHelpOptions = true,
        description = "Add or update the tools of catalog FILEs in the data directory, embedding only what changed. "
                + "Stored tools the files do not name are kept unless --replace is given. With --openapi, import an "
                + "OpenAPI 3 document's operations as HTTP tools instead (docs/OPENAPI.md).")
final class IndexCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "FILE", description = "Catalog files (JSON or YAML).")
    List<Path> files = List.of();

    @Option(
            names = "--replace",
            description = "Make the catalog hold exactly these files' tools: remove every other stored tool (MCP "
                    + "servers' tools excepted). Without it nothing stored is removed.")
    boolean replace;

    @Option(
            names = "--source",
            paramLabel = "NAME",
            description =
                    "The FILEs are saved MCP tools/list responses; their tools are named NAME__<tool> and "
                            + "their annotations kept (see docs/CATALOG_FORMAT.md). With --openapi: the imported tools' source.")
    String source;

    @Option(
            names = "--openapi",
            paramLabel = "FILE",
            description = "Import an OpenAPI 3.0/3.1 document (JSON or YAML): each operation becomes a tool "
                    + "NAME__<operationId> called over HTTP. Needs --source NAME. Importing the same source again replaces "
                    + "its tools.")
    Path openapi;

    @Option(
            names = "--base-url",
            paramLabel = "URL",
            description = "With --openapi: where the API is called (default: the document's first servers URL).")
    String baseUrl;

    @Option(
            names = "--auth",
            paramLabel = "TYPE",
            description =
                    "With --openapi: the API's credential, bearer, header:NAME (an API key header) or basic:USER, "
                            + "its secret given by --secret-env or --seal-secret-env; 'none' drops a stored one. Without --auth an "
                            + "import again keeps the stored credential.")
    String auth;

    @Option(
            names = "--secret-env",
            paramLabel = "VAR",
            description = "With --auth: the secret is the environment variable VAR of the process that calls the API, "
                    + "read at each call; only the name is stored.")
    String secretEnv;

    @Option(
            names = "--seal-secret-env",
            paramLabel = "VAR",
            description = "With --auth: the secret is read from the environment variable VAR now and stored sealed "
                    + "with the data directory's secret key (docs/SECURITY.md).")
    String sealSecretEnv;

    @picocli.CommandLine.ParentCommand
    ToolScoutCli cli;

    @Mixin
    EngineOptions engine;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (openapi != null) {
            return importOpenApi();
        }
        for (String[] o : new String[][] {
            {"--base-url", baseUrl}, {"--auth", auth}, {"--secret-env", secretEnv}, {"--seal-secret-env", sealSecretEnv}
        }) {
            if (o[1] != null) {
                throw new IllegalArgumentException(o[0] + " applies to --openapi only");
            }
        }
        if (files.isEmpty()) {
            throw new IllegalArgumentException("FILE is required: the catalog files to index (or --openapi FILE)");
        }
        // validate every file before touching the store: a bad file changes nothing
        CatalogFiles.Loaded loaded = source == null ? CatalogFiles.readAll(files) : null;
        List<ToolSpec> tools = source == null ? loaded.tools() : CatalogFiles.loadToolsLists(files, source);
        List<Skill> skills = source == null ? CatalogFiles.loadSkills(files) : List.of();
        PrintWriter err = spec.commandLine().getErr();
        if (loaded != null && loaded.warning() != null) {
            err.println(loaded.warning());
            err.flush();
        }
        ProgressBar bar = new ProgressBar(err, tools.size());
        long start = System.nanoTime();
        try (ToolScout scout = EngineOptions.open(engine.options().withProgress(bar::update), err)) {
            // how many were embedded, and --replace (drop every other stored tool), are the engine's, not the API's
            Maintenance e = scout.maintenance();
            long before = e.embeddedCount();
            CatalogChange c = replace ? e.replaceCatalogTools(tools) : scout.upsert(tools);
            skills.forEach(scout::putSkill);
            // the next start, often a one-shot `select`, searches the index as a running server keeps it
            e.compactIndex();
            bar.finish();
            double secs = (System.nanoTime() - start) / 1e9;
            PrintWriter out = spec.commandLine().getOut();
            out.printf(
                    Locale.ROOT,
                    "Indexed %d tools from %d file(s): %d added, %d updated, %d unchanged%s; embedded %d in %.1f s. "
                            + "Catalog now holds %d tools (version %d).%n",
                    tools.size(),
                    files.size(),
                    c.added(),
                    c.updated(),
                    tools.size() - c.added() - c.updated(),
                    replace ? ", " + c.removed() + " removed" : "",
                    e.embeddedCount() - before,
                    secs,
                    scout.size(),
                    c.version());
            if (!skills.isEmpty()) {
                out.printf(
                        Locale.ROOT,
                        "Skills: %s (`toolscout skills list`).%n",
                        String.join(", ", skills.stream().map(Skill::name).toList()));
            }
            out.flush();
        }
        return 0;
    }

    /** {@code index --openapi FILE --source NAME}: the document read and checked before the store is touched. */
    private int importOpenApi() throws Exception {
        if (source == null) {
            throw new IllegalArgumentException(
                    "--openapi needs --source NAME: the name its tools get (NAME__<operation>)");
        }
        if (!files.isEmpty() || replace) {
            throw new IllegalArgumentException(
                    "--openapi imports one document: give catalog FILEs and --replace in " + "another index command");
        }
        OpenApiImporter.checkSource(source);
        if ((secretEnv != null || sealSecretEnv != null) && auth == null) {
            throw new IllegalArgumentException(
                    "--secret-env and --seal-secret-env give the secret of --auth: add --auth "
                            + "bearer, header:NAME or basic:USER");
        }
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter out = spec.commandLine().getOut();
        try (ToolScout scout = EngineOptions.open(engine.options(), err)) {
            OpenApiAuth credential = credential(scout);
            OpenApiImporter.Imported imported = OpenApiImporter.read(openapi, source, baseUrl, credential);
            for (String w : imported.warnings()) {
                err.println("toolscout index: warning: " + w);
            }
            err.flush();
            long start = System.nanoTime();
            Catalog.Change c = OpenApiImport.apply(scout, imported);
            OpenApiSource s = imported.source();
            long leftOut = imported.warnings().stream()
                    .filter(w -> w.contains(": left out: "))
                    .count();
            out.printf(
                    Locale.ROOT,
                    "Imported %d operations of %s as %s__* tools: %d added, %d updated, %d unchanged, %d removed in %.1f s%s. "
                            + "Calls go to %s with %s. Catalog now holds %d tools (version %d).%n",
                    imported.tools().size(),
                    openapi,
                    source,
                    c.added(),
                    c.updated(),
                    imported.tools().size() - c.added() - c.updated(),
                    c.removed(),
                    (System.nanoTime() - start) / 1e9,
                    leftOut == 0 ? "" : "; " + leftOut + " left out (see the warnings)",
                    s.baseUrl(),
                    s.auth() == null ? "no credential" : s.auth().describe(),
                    scout.size(),
                    c.version());
            out.flush();
        }
        return 0;
    }

    /** The credential {@code --auth} and its secret option give, or the stored one when {@code --auth} is absent. */
    private OpenApiAuth credential(ToolScout scout) {
        if (auth == null) {
            return OpenApiImport.stored(scout, source).map(OpenApiSource::auth).orElse(null);
        }
        if (auth.equals("none")) {
            if (secretEnv != null || sealSecretEnv != null) {
                throw new IllegalArgumentException(
                        "--auth none takes no secret, got: --secret-env or --seal-secret-env");
            }
            return null;
        }
        if ((secretEnv == null) == (sealSecretEnv == null)) {
            throw new IllegalArgumentException(
                    "--auth " + auth + " needs its secret from exactly one of --secret-env VAR "
                            + "(read at each call) and --seal-secret-env VAR (read now, stored sealed)");
        }
        String sealed = null;
        if (sealSecretEnv != null) {
            String value = cli.env.get(sealSecretEnv);
            if (value == null || value.isBlank()) {
                throw new IllegalArgumentException("--seal-secret-env " + sealSecretEnv
                        + ": the environment variable is not " + "set or is blank");
            }
            sealed = SecretBox.open(engine.resolveDataDir(), cli.env).seal(value);
        }
        int colon = auth.indexOf(':');
        String type = colon < 0 ? auth : auth.substring(0, colon);
        String arg = colon < 0 ? null : auth.substring(colon + 1);
        OpenApiAuth.Type t = switch (type) {
            case "bearer" -> OpenApiAuth.Type.BEARER;
            case "header" -> OpenApiAuth.Type.HEADER;
            case "basic" -> OpenApiAuth.Type.BASIC;
            default ->
                throw new IllegalArgumentException(
                        "--auth must be bearer, header:NAME, basic:USER or none, got: '" + auth + "'");
        };
        if ((t == OpenApiAuth.Type.BEARER) != (arg == null)) {
            throw new IllegalArgumentException(
                    "--auth must be bearer, header:NAME, basic:USER or none, got: '" + auth + "'");
        }
        return new OpenApiAuth(
                t,
                t == OpenApiAuth.Type.HEADER ? arg : null,
                t == OpenApiAuth.Type.BASIC ? arg : null,
                secretEnv,
                sealed);
    }
}

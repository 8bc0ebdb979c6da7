package dev.toolscout.server.cli;

import dev.toolscout.embeddings.LocalEmbeddingModels;
import dev.toolscout.engine.RankingParts;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.engine.files.CatalogFiles;
import dev.toolscout.eval.calibration.CalibrationEngine;
import dev.toolscout.eval.calibration.LocomoCases;
import dev.toolscout.eval.calibration.RouteCalibration;
import dev.toolscout.eval.calibration.VerbCalibration;
import dev.toolscout.model.ToolSpec;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code toolscout calibrate routes|verbs}: the procedures that fit the shipped route thresholds and the verb
 * substitution threshold per embedding model on labelled data (ARCHITECTURE.md, invariant 9; docs/ROUTING.md and
 * docs/VERBS.md, "Calibration"). The logic is toolscout-eval's; this composition root hands it the engine.
 */
@Command(
        name = "calibrate",
        mixinStandardHelpOptions = true,
        description = "Calibrate per embedding model on labelled data: the router's thresholds (routes) or the verb "
                + "resolver's substitution threshold (verbs). Markdown tables on stdout, progress on stderr.",
        subcommands = {CalibrateCommand.Routes.class, CalibrateCommand.Verbs.class})
final class CalibrateCommand {
    /** The product's engine on a data directory, its model loaded, as the calibrations route and rank through it. */
    static CalibrationEngine open(Path dataDir, List<ToolSpec> tools, String modelId) throws IOException {
        ToolScout scout = ToolScout.builder()
                .dataDir(dataDir)
                .tools(tools)
                .model(modelId)
                .preloadModel(true)
                .build();
        RankingParts e = scout.rankingParts();
        return new CalibrationEngine(
                e.catalog(),
                e.index(),
                e.model(),
                e.access(),
                e.selector().config().fusion(),
                e.router(),
                e.memories(),
                scout);
    }

    static Path defaultWork(String folder) {
        return Path.of(System.getProperty("user.home"), ".toolscout", folder);
    }

    @Command(
            name = "routes",
            mixinStandardHelpOptions = true,
            description =
                    "Fit the router's thresholds (DIRECT_MEMORY, SKILL_EXECUTE, SKILL_HINT, TOOL_FILTER) per model "
                            + "on the development sets under DATASETS and the hand-written route set, and print each route's "
                            + "precision and recall, fitted and shipped (docs/ROUTING.md, \"Calibration\").")
    static final class Routes implements Callable<Integer> {
        @Parameters(
                index = "0",
                paramLabel = "DATASETS",
                description =
                        "The datasets folder (datasets/README.md: metatool-toole, toollens, toolret-subsets-via-mftr, "
                                + "etom-mcp, seal-tools, each normalized).")
        Path root;

        @Option(
                names = "--locomo",
                paramLabel = "DIR",
                description = "Also the LoCoMo memory set (the locomo-memory folder, read in place): its calibration "
                        + "conversations join the fit, the others are scored held out (docs/EVALUATION.md, Routes).")
        Path locomo;

        @Option(
                names = "--locomo-calibration",
                split = ",",
                paramLabel = "CONV,CONV,...",
                description = "The LoCoMo conversations the thresholds may be fitted on; the others are held out "
                        + "(default: conv-26,conv-30,conv-41).")
        List<String> locomoCalibration = List.copyOf(new java.util.TreeSet<>(LocomoCases.Locomo.DEFAULT_CALIBRATION));

        @Option(
                names = "--models",
                split = ",",
                paramLabel = "ID,ID,...",
                description = "Embedding models (default: all-minilm-l6-v2-q,bge-small-en-v1.5-q).")
        List<String> models = RouteCalibration.MODELS;

        @Option(
                names = "--work",
                paramLabel = "DIR",
                description = "Where the engines' data directories go, so a rerun embeds nothing "
                        + "(default: ~/.toolscout/route-calibration).")
        Path work;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            models.forEach(LocalEmbeddingModels::dimension); // an unknown id fails before minutes of embedding
            new RouteCalibration(
                            CalibrateCommand::open,
                            CatalogFiles.demo(),
                            spec.commandLine().getOut(),
                            spec.commandLine().getErr())
                    .run(
                            root,
                            models,
                            work != null ? work : defaultWork("route-calibration"),
                            locomo == null ? null : new LocomoCases.Locomo(locomo, Set.copyOf(locomoCalibration)));
            return 0;
        }
    }

    @Command(
            name = "verbs",
            mixinStandardHelpOptions = true,
            description =
                    "Fit the verb resolver's substitution threshold per model on the development sets under "
                            + "DATASETS (open-set protocol) and half of etom-mcp's equivalent tools, compare the candidate confidence"
                            + " rules, and check the threshold on the held-out half and the verbs set (docs/VERBS.md, \"Calibration\").")
    static final class Verbs implements Callable<Integer> {
        @Parameters(
                index = "0",
                paramLabel = "DATASETS",
                description = "The datasets folder (datasets/README.md: metatool-toole, toollens, seal-tools, "
                        + "toolret-subsets-via-mftr, etom-mcp, each normalized).")
        Path root;

        @Option(
                names = "--models",
                split = ",",
                paramLabel = "ID,ID,...",
                description = "Embedding models (default: every bundled model).")
        List<String> models = LocalEmbeddingModels.ids();

        @Option(
                names = "--per-set",
                paramLabel = "N",
                description = "Single-gold queries per development set (default: " + VerbCalibration.PER_SET + ").")
        int perSet = VerbCalibration.PER_SET;

        @Option(
                names = "--work",
                paramLabel = "DIR",
                description = "Where the engines' data directories go, so a rerun embeds nothing "
                        + "(default: ~/.toolscout/verb-calibration).")
        Path work;

        @Option(
                names = "--sets",
                paramLabel = "PREFIX,...",
                description = "Only the development sets whose label starts with one of these (e.g. etom,seal;"
                        + " default: all). The equivalent MCP tools of etom-mcp are always in.")
        String sets;

        @Option(
                names = "--cases",
                paramLabel = "FILE",
                description = "Also write one JSON line per case and model (its label and top candidates) to FILE.")
        Path cases;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            new VerbCalibration(
                            CalibrateCommand::open,
                            spec.commandLine().getOut(),
                            spec.commandLine().getErr())
                    .run(
                            root,
                            models,
                            work != null ? work : defaultWork("verb-calibration"),
                            perSet,
                            cases,
                            VerbCalibration.sets(sets));
            return 0;
        }
    }
}

package dev.toolscout.server;

import dev.toolscout.bench.eval.AdapterShiftSweep;
import dev.toolscout.bench.eval.ClauseSweep;
import dev.toolscout.bench.eval.DocTextSweep;
import dev.toolscout.bench.eval.FusionSweep;
import dev.toolscout.bench.eval.HubSweep;
import dev.toolscout.bench.eval.NameViewSweep;
import dev.toolscout.bench.eval.PrfSweep;
import dev.toolscout.bench.eval.ProductEngineFactory;
import dev.toolscout.bench.eval.QueryTextSweep;
import dev.toolscout.bench.eval.ThreeListSweep;
import dev.toolscout.bench.eval.VerbSynonymSweep;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * Starts one of the evaluation harness's sweeps (toolscout-bench's {@code dev.toolscout.bench.eval}) with this
 * composition root's {@link EngineFactory}, so that the sweep indexes and ranks exactly as the product does:
 *
 * <pre>
 * java -cp toolscout-server/target/toolscout.jar dev.toolscout.server.EvalTools TOOL ARGS...
 * </pre>
 *
 * TOOL is the sweep's simple class name, one of {@link #TOOLS}; ARGS go to it unchanged (its class comment says
 * what they are), and it prints what it printed when it had its own {@code main}. A missing or unknown TOOL
 * exits with status 2 and a message that lists the accepted names. The harness's tools that open no engine
 * ({@code dev.toolscout.bench.eval.QueryAdapterTrainer}) keep their own {@code main}. Evaluation tooling, not
 * API.
 */
public final class EvalTools {
  /** The accepted TOOL names, each dispatched by {@link #launch}'s switch. */
  static final List<String> TOOLS = List.of("AdapterShiftSweep", "ClauseSweep", "DocTextSweep", "FusionSweep",
      "HubSweep", "NameViewSweep", "PrfSweep", "QueryTextSweep", "ThreeListSweep", "VerbSynonymSweep");

  static final String USAGE = "usage: java -cp toolscout.jar " + EvalTools.class.getName() + " TOOL ARGS..."
      + " (ARGS: see the tool's class comment in dev.toolscout.bench.eval; QueryAdapterTrainer opens no engine and"
      + " is started by its own class name)";

  private EvalTools() {}

  public static void main(String[] args) throws Exception {
    int status = launch(new EngineFactory(), System.err, args);
    if (status != 0) {
      System.exit(status);
    }
  }

  /**
   * Runs the tool named by {@code args[0]} with {@code engines} and the rest of {@code args}, and returns 0; or,
   * when {@code args} names no accepted tool, writes why to {@code err} and returns 2. The tool's own exceptions
   * (its arguments, its data) propagate.
   */
  static int launch(ProductEngineFactory engines, PrintStream err, String... args) throws Exception {
    if (args.length == 0 || !TOOLS.contains(args[0])) {
      err.println("EvalTools: the first argument must name the tool to run, one of " + TOOLS + "; got"
          + (args.length == 0 ? " no arguments" : ": '" + args[0] + "'"));
      err.println(USAGE);
      return 2;
    }
    String[] rest = Arrays.copyOfRange(args, 1, args.length);
    switch (args[0]) {
      case "AdapterShiftSweep" -> AdapterShiftSweep.run(engines, rest);
      case "ClauseSweep" -> ClauseSweep.run(engines, rest);
      case "DocTextSweep" -> DocTextSweep.run(engines, rest);
      case "FusionSweep" -> FusionSweep.run(engines, rest);
      case "HubSweep" -> HubSweep.run(engines, rest);
      case "NameViewSweep" -> NameViewSweep.run(engines, rest);
      case "PrfSweep" -> PrfSweep.run(engines, rest);
      case "QueryTextSweep" -> QueryTextSweep.run(engines, rest);
      case "ThreeListSweep" -> ThreeListSweep.run(engines, rest);
      case "VerbSynonymSweep" -> VerbSynonymSweep.run(engines, rest);
      default -> throw new IllegalStateException("tool " + args[0] + " is in TOOLS but not dispatched");
    }
    return 0;
  }
}

package dev.toolscout.examples;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.engine.CatalogChange;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.SelectResult;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * ToolScout in a plain Java program: open a data directory, select tools for a message, add a tool, and see it
 * in the next selection. Exits with 1 when the added tool is not selected.
 *
 * <pre>
 * java -cp ... dev.toolscout.examples.SelectExample [DATA_DIR]
 * </pre>
 */
public final class SelectExample {
  private SelectExample() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = args.length > 0 ? Path.of(args[0]) : Files.createTempDirectory("toolscout-example");
    // one instance per data directory, shared by every thread; a new directory starts with the demo catalog
    try (ToolScout scout = ToolScout.builder().dataDir(dataDir).build()) {
      String message = "Book a table for four at an Italian restaurant tonight";
      print("Before", scout.select(SelectRequest.of(message).withK(5)));

      ToolSpec booking = ToolSpec.builder("dining__reserve_table",
              "Reserve a table at a restaurant for a party of a given size, date and time")
          .category("travel")
          .parameters((ObjectNode) new ObjectMapper().readTree("""
              {"type": "object",
               "properties": {"restaurant": {"type": "string"}, "party_size": {"type": "integer"},
                              "time": {"type": "string", "description": "ISO 8601 date and time"}},
               "required": ["restaurant", "party_size", "time"]}"""))
          .build();
      CatalogChange change = scout.upsert(List.of(booking)); // durable and indexed on return
      System.out.println("Added " + change.added() + " tool (catalog version " + change.version() + ", "
          + scout.size() + " tools)");

      SelectResult after = scout.select(SelectRequest.of(message).withK(5));
      print("After", after);
      boolean seen = after.selected().stream().anyMatch(t -> t.name().equals(booking.fullName()));
      if (!seen) {
        System.err.println("SelectExample: " + booking.fullName() + " was added but not selected");
        System.exit(1);
      }
    }
  }

  private static void print(String when, SelectResult r) {
    System.out.println(when + ": " + r.reason());
    for (SelectResult.SelectedTool t : r.selected()) {
      System.out.printf("  %-32s %.3f  %s%n", t.name(), t.score(), t.reason());
    }
    System.out.printf("  tokens: %d of %d (%.1f%% saved)%n", r.tokens().selected(), r.tokens().all(),
        r.tokens().savedPct());
  }
}

package dev.toolscout.render;

import dev.toolscout.selection.Selection;
import dev.toolscout.selection.Selection.SelectedTool;

/**
 * The system-prompt section that tells the model which tools it has for this request, why, and how to find
 * more (the seed's transparency message).
 */
public final class SystemPrompt {
  private SystemPrompt() {}

  public static String section(Selection selection) {
    StringBuilder b = new StringBuilder();
    b.append("# Tools available for this request\n\n");
    if (selection.selected().isEmpty()) {
      b.append("No tools were selected for this message.\n");
    } else {
      b.append("I've selected these tools based on your message:\n");
      int i = 1;
      for (SelectedTool t : selection.selected()) {
        b.append(i++).append(". ").append(t.name()).append(" — ").append(firstSentence(t.spec().description()));
        b.append(" (").append(t.reason()).append(")\n");
      }
      b.append('\n').append(selection.reason()).append('\n');
    }
    if (selection.discoverySuggested()) {
      b.append("\n# Discover more tools\n\n");
      b.append("These are the most relevant of ").append(selection.visibleCount())
          .append(" tools; ").append(selection.excludedCount()).append(" more are available.\n");
      b.append("If you need something else, call tool_discovery__find with a short description of the task ")
          .append("(e.g. \"send email\"), tool_discovery__list_all to browse by category, or ")
          .append("tool_discovery__describe with a tool name for its full definition.\n");
    }
    return b.toString();
  }

  private static String firstSentence(String s) {
    int dot = s.indexOf(". ");
    String first = dot > 0 ? s.substring(0, dot + 1) : s;
    return first.length() > 160 ? first.substring(0, 157) + "..." : first;
  }
}

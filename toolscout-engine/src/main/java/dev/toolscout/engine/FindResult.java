package dev.toolscout.engine;

import dev.toolscout.model.AiAccess;
import java.util.List;

/**
 * Tools matching a search, best first: what {@code tool_discovery__find} answers.
 *
 * @param query the query as given
 * @param tools the matches the principal may see, at most the limit asked for
 */
public record FindResult(String query, List<ToolMatch> tools) {
  public FindResult {
    tools = List.copyOf(tools);
  }

  /**
   * One match.
   *
   * @param score the fused relevance, 0-1, rounded to four decimals
   */
  public record ToolMatch(String name, String description, String category, AiAccess aiAccess, double score) {}
}

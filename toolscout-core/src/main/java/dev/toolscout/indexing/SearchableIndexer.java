package dev.toolscout.indexing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.model.ToolSpec;
import java.util.List;
import java.util.Objects;

/**
 * An indexer of content that is no tool (a git repository's history, say) which the router fans a message out to,
 * beside the tools, skills and memories (seed 003: "fan-out across ALL indexers"), and which the model searches
 * through one tool, {@link #tool()}. The engine registers it (the router's fan-out, the tool offered in a selection
 * and run through the call gate); the router knows it only by this contract.
 *
 * <p>Access: a principal reaches the entries only as the access policy lets it use {@link #tool()}, judged like any
 * tool (by its name, source and category); a principal it denies sees nothing of the index, as if none were
 * registered. Implementations are thread-safe.
 */
public interface SearchableIndexer extends Indexer {
    /**
     * The tool that searches this index: what the policy judges, what a selection offers when the index holds the
     * message's nearest match, and what the model calls ({@link #search}).
     */
    ToolSpec tool();

    /**
     * The entries nearest to a message's document vector (as the router embeds it: like for like with the indexed
     * texts), best first, ties by name.
     *
     * @param limit at least 1
     */
    List<Near> nearest(float[] documentVector, int limit);

    /**
     * Runs {@link #tool()} with {@code arguments}, which the call gate has checked against its input schema.
     *
     * @return the tool's answer
     * @throws IllegalArgumentException for arguments the search refuses, with a message naming the input, the rule
     *     and the bad value
     */
    JsonNode search(JsonNode arguments);

    /**
     * One entry near a message.
     *
     * @param name what the entry is, for people and the model (a commit's short id and subject, a file's path)
     * @param text the start of the indexed text (at most 300 characters are shown)
     * @param cosine the cosine of the entry's vector to the message's (absolute, not a rank)
     */
    record Near(String name, String text, double cosine) {
        public Near {
            Objects.requireNonNull(name, "name");
            text = text == null ? "" : text;
        }
    }
}

package dev.toolscout.indexing;

import dev.toolscout.access.AllowedSet;
import dev.toolscout.model.ToolSpec;
import java.util.Objects;

/**
 * What the index stores of one tool: its ordinal and name, the text fields BM25 searches, and its vector.
 *
 * @param ord the catalog ordinal (stable while the tool exists; what {@link AllowedSet} holds)
 * @param name the full tool name
 * @param nameWords the name split into words ({@code gmail__sendEmail} becomes {@code gmail send email})
 * @param description the description and the examples ({@link ToolText#descriptionText})
 * @param parameterText parameter names (split into words), descriptions and enum values
 * @param labels category, tags and source, space separated
 * @param vector the embedding of {@link ToolText#embeddingText(ToolSpec)}, unit length
 */
public record ToolDocument(
        int ord,
        String name,
        String nameWords,
        String description,
        String parameterText,
        String labels,
        float[] vector) {

    public ToolDocument {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(vector, "vector");
    }

    /** Builds the document of {@code spec} with its stored vector. */
    public static ToolDocument of(int ord, ToolSpec spec, float[] vector) {
        return new ToolDocument(
                ord,
                spec.fullName(),
                ToolText.nameWords(spec),
                ToolText.descriptionText(spec),
                ToolText.parameterText(spec),
                ToolText.labels(spec),
                vector);
    }
}

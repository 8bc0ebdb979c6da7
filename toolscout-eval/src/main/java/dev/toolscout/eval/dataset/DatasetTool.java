package dev.toolscout.eval.dataset;

import dev.toolscout.model.ToolSpec;
import java.util.Objects;

/**
 * One tool of a dataset: the id its qrels use, its name as the dataset gives it (several ids may share a
 * name, e.g. one tool on several servers), and the {@link ToolSpec} built from it (whose {@link
 * ToolSpec#sourceName()} is that id).
 */
public record DatasetTool(String id, String displayName, ToolSpec spec) {
    public DatasetTool {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(spec, "spec");
        if (displayName == null || displayName.isBlank()) {
            displayName = id;
        }
    }

    public DatasetTool(String id, ToolSpec spec) {
        this(id, null, spec);
    }
}

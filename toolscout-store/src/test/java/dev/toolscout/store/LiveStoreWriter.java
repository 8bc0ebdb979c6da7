package dev.toolscout.store;

import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Run in a child JVM by {@link SqliteReadOnlyStoreTest}: a writer that keeps changing the store until it is
 * killed. Change {@code n} adds the tool {@code live__tNNNNN} and rewrites {@code live__counter} to say n, so
 * at every catalog version v a consistent read holds exactly v + 1 tools and a counter saying v. Prints
 * "WRITING" once the first change is durable.
 */
public final class LiveStoreWriter {
    private LiveStoreWriter() {}

    public static void main(String[] args) throws InterruptedException {
        try (SqliteStateStore store = SqliteStateStore.open(Path.of(args[0]))) {
            for (long n = store.catalogVersion() + 1; ; n++) {
                long version = store.applyCatalogChange(List.of(tool(n), counter(n)), List.of());
                if (version != n) {
                    throw new IllegalStateException("expected version " + n + ", got " + version);
                }
                if (n == 1) {
                    System.out.println("WRITING");
                    System.out.flush();
                }
                Thread.sleep(2); // leave the shared cores to the reader
            }
        }
    }

    static ToolSpec tool(long n) {
        return ToolSpec.builder(String.format(Locale.ROOT, "live__t%05d", n), "Written by change " + n)
                .build();
    }

    static ToolSpec counter(long n) {
        return ToolSpec.builder("live__counter", "change " + n).build();
    }
}

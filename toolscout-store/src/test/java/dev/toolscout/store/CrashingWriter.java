package dev.toolscout.store;

import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Run in a child JVM by {@link SqliteStateStoreTest}: applies one catalog change and saves vectors, prints
 * "ACK" and halts at once, without closing the store or running shutdown hooks, like a process killed right
 * after it answered a registration.
 */
public final class CrashingWriter {
    static final String MODEL = "crash-model";
    static final String SEED_KEPT = "seed__kept";
    static final String SEED_REMOVED = "seed__removed";

    private CrashingWriter() {}

    public static void main(String[] args) {
        SqliteStateStore store = SqliteStateStore.open(Path.of(args[0]));
        long version = store.applyCatalogChange(newTools(), List.of(SEED_REMOVED));
        store.saveVectors(MODEL, vectors());
        System.out.println("ACK " + version);
        System.out.flush();
        Runtime.getRuntime().halt(0);
    }

    static List<ToolSpec> newTools() {
        return List.of(
                ToolSpec.builder("crash__one", "Written just before the halt").build(),
                ToolSpec.builder(SEED_KEPT, "Replaced just before the halt")
                        .tags(List.of("new"))
                        .build());
    }

    static Map<String, float[]> vectors() {
        Map<String, float[]> v = new LinkedHashMap<>();
        v.put("h1", new float[] {0.25f, -0f, Float.NaN, 3e-40f});
        float[] big = new float[384];
        for (int i = 0; i < big.length; i++) {
            big[i] = (float) Math.sin(i);
        }
        v.put("h2", big);
        return v;
    }
}

package dev.toolscout.engine;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Run in a child JVM by {@link IndexingCrashTest} and killed there with SIGKILL: stores a large change (an
 * upstream's {@value #BULK} tools) without waiting for its indexing, then small changes, each acknowledged
 * (durable) before "ACK name" is printed, then "ACKED"; the worker prints "EMBEDDED n" as it embeds the large
 * change. Then waits to be killed.
 */
public final class IndexingCrashWriter {
    static final int BULK = 1_000;
    static final int SMALL = 5;

    private IndexingCrashWriter() {}

    public static void main(String[] args) throws Exception {
        Engine.Options o = Engine.Options.of(Path.of(args[0])).withProgress(n -> {
            System.out.println("EMBEDDED " + n);
            System.out.flush();
        });
        try (Engine e = Engine.open(o)) {
            e.catalog().apply(bulk(), List.of());
            for (int i = 0; i < SMALL; i++) {
                Catalog.Change c = e.catalog().apply(List.of(small(i)), List.of());
                System.out.println("ACK " + small(i).fullName() + " " + c.version());
            }
            System.out.println("ACKED");
            System.out.flush();
            Thread.sleep(600_000);
        }
    }

    static List<ToolSpec> bulk() {
        List<ToolSpec> out = new ArrayList<>();
        for (int i = 0; i < BULK; i++) {
            out.add(ToolSpec.builder(
                            String.format(Locale.ROOT, "upstream__op%04d", i),
                            "Operation " + i + " of a large upstream server: reads record " + i + " of the inventory.")
                    .build());
        }
        return out;
    }

    static ToolSpec small(int i) {
        return ToolSpec.builder("other" + i + "__ping", "Check that host number " + i + " answers.")
                .build();
    }
}

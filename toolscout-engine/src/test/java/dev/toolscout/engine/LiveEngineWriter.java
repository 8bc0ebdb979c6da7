package dev.toolscout.engine;

import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Run in a child JVM by {@link ReadOnlyBesideLiveWriterProcessTest}: holds a data directory and keeps changing
 * its catalog until killed, each change embedding a new tool, storing it and committing the index after it, as
 * a busy {@code serve} does. Change n adds {@code live__tNNNNN} and removes the tool added three changes before, so a
 * catalog holds at most three such tools.
 * Prints "WRITING" once the first change is durable.
 */
public final class LiveEngineWriter {
    private LiveEngineWriter() {}

    public static void main(String[] args) throws Exception {
        try (Engine e = Engine.open(Engine.Options.of(Path.of(args[0])))) {
            for (int n = 1; ; n++) {
                // one change: the new tool in, the one of three changes before out
                // and waits until it is indexed, as the engine's write calls do
                e.indexed(e.catalog()
                        .apply(
                                List.of(ToolSpec.builder(
                                                name(n), "Live tool number " + n + ", written while " + "readers read")
                                        .build()),
                                n > 3 ? List.of(name(n - 3)) : List.of()));
                if (n == 1) {
                    System.out.println("WRITING");
                    System.out.flush();
                }
                Thread.sleep(5); // leave the shared cores to the reader
            }
        }
    }

    static String name(int n) {
        return String.format(Locale.ROOT, "live__t%05d", n);
    }
}

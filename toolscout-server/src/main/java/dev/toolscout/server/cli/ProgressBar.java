package dev.toolscout.server.cli;

import java.io.PrintWriter;
import java.util.Locale;

/** A one-line progress bar on stderr, drawn only for runs large enough to need one. */
final class ProgressBar {
    private static final int WIDTH = 30;
    private static final int MIN_TOTAL = 200;
    private final PrintWriter err;
    private final int total;
    private boolean drawn;

    ProgressBar(PrintWriter err, int total) {
        this.err = err;
        this.total = total;
    }

    void update(int done) {
        if (total < MIN_TOTAL) {
            return;
        }
        int d = Math.min(done, total);
        int filled = (int) ((long) WIDTH * d / total);
        err.printf(
                Locale.ROOT,
                "\rEmbedding [%s%s] %,d/%,d (%d%%)",
                "=".repeat(filled),
                " ".repeat(WIDTH - filled),
                d,
                total,
                100L * d / total);
        err.flush();
        drawn = true;
    }

    void finish() {
        if (drawn) {
            err.println();
            err.flush();
        }
    }
}

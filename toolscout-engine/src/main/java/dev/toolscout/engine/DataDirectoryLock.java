package dev.toolscout.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * The one writer of a data directory: an OS file lock on {@code <dir>/lock}, taken before the store or any
 * model's index opens and held until the engine closes. It covers the store and every index under the
 * directory, so a second process (with another {@code --model}, say) cannot write the catalog while {@code
 * serve} runs. The OS drops the lock when its process dies, so a crash never leaves the directory locked.
 *
 * <p>The lock file holds the holder's pid and start time, for the message the next process shows. Not
 * thread-safe; one per engine.
 */
final class DataDirectoryLock implements AutoCloseable {
    static final String FILE = "lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DataDirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the lock of {@code dataDir} (which must exist) without waiting.
     *
     * @throws DataDirectoryInUseException when another engine, in this process or another, holds it
     */
    static DataDirectoryLock acquire(Path dataDir) {
        Path file = dataDir.resolve(FILE);
        FileChannel ch = null;
        try {
            ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
            FileLock l;
            try {
                l = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                throw new DataDirectoryInUseException(
                        dataDir,
                        "an engine in this process (pid "
                                + ProcessHandle.current().pid() + ")");
            }
            if (l == null) {
                throw new DataDirectoryInUseException(dataDir, holder(file));
            }
            String me = "pid " + ProcessHandle.current().pid() + ", since " + Instant.now();
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(me.getBytes(StandardCharsets.UTF_8)), 0);
            ch.force(false);
            return new DataDirectoryLock(ch, l);
        } catch (IOException e) {
            closeQuietly(ch);
            throw new UncheckedIOException("cannot lock the data directory " + dataDir + " (" + file + "): " + e, e);
        } catch (RuntimeException e) {
            closeQuietly(ch);
            throw e;
        }
    }

    /** What the holder wrote into the lock file (fcntl locks are advisory, so it can be read), if anything. */
    private static String holder(Path file) {
        try {
            String s = Files.readString(file, StandardCharsets.UTF_8).strip();
            return s.isEmpty() || s.length() > 200 ? "another process" : "another process (" + s + ")";
        } catch (IOException | RuntimeException e) {
            return "another process";
        }
    }

    private static void closeQuietly(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // already failing; the first error is the one to report
            }
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // closing the channel releases it as well
        } finally {
            closeQuietly(channel);
        }
    }
}

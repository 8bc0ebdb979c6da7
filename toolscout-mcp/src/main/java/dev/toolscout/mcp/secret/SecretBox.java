package dev.toolscout.mcp.secret;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Seals secrets at rest (API keys, secret headers and environment variables of upstream servers) with
 * AES-256-GCM: {@code "enc:v1:" + base64(nonce || ciphertext || tag)}, a random 12-byte nonce per seal, so
 * sealing the same text twice gives two different values. GCM authenticates: a wrong key or an altered
 * value fails to unseal instead of returning garbage.
 *
 * <p>The key comes from the environment variable {@value #ENV_KEY} (base64 of exactly 32 bytes) when it is
 * set, else from {@code <dataDir>/}{@value #KEY_FILE}, which is created on first use with 32 random bytes and
 * permissions 0600. Losing the key loses every sealed secret: back the key file up with the data directory,
 * or set the variable on every node that shares a store.
 *
 * <p>Thread-safe (a new {@link Cipher} per call). Only the JDK's {@code javax.crypto}.
 */
public final class SecretBox {
    private static final Logger LOG = LoggerFactory.getLogger(SecretBox.class);

    /** The environment variable that holds the key (base64 of 32 bytes); it wins over the key file. */
    public static final String ENV_KEY = "TOOLSCOUT_SECRET_KEY";

    /** The key file's name inside the data directory. */
    public static final String KEY_FILE = "secret.key";

    /** What every sealed value starts with; the version names the algorithm and layout below. */
    public static final String PREFIX = "enc:v1:";

    private static final int KEY_BYTES = 32;
    private static final int NONCE_BYTES = 12;
    private static final int TAG_BITS = 128;
    private static final String ALGORITHM = "AES/GCM/NoPadding";
    /** Bound as associated data, so a value sealed under another format version never unseals as this one. */
    private static final byte[] AAD = PREFIX.getBytes(StandardCharsets.US_ASCII);

    private static final Set<PosixFilePermission> OWNER_ONLY =
            EnumSet.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
    private static final Set<PosixFilePermission> GROUP_OR_OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_EXECUTE);

    private final SecretKeySpec key;
    private final Path keyFile;
    /** Where the key came from, for messages: never the key itself. */
    private final String keySource;

    private final SecureRandom random = new SecureRandom();

    private SecretBox(byte[] key, Path keyFile, String keySource) {
        this.key = new SecretKeySpec(key, "AES");
        this.keyFile = keyFile;
        this.keySource = keySource;
    }

    /**
     * Opens the box with the key from {@code env}'s {@value #ENV_KEY}, else from {@code <dataDir>/secret.key}
     * (creating the directory and the file when absent).
     *
     * @param env the process environment ({@code System.getenv()} in production)
     * @throws IllegalArgumentException when {@value #ENV_KEY} is set but is not the base64 of exactly 32 bytes
     *     (the message gives the length it got, never the value)
     * @throws IllegalStateException when the key file exists but does not hold exactly 32 bytes
     * @throws UncheckedIOException when the key file cannot be read or created
     */
    public static SecretBox open(Path dataDir, Map<String, String> env) {
        Objects.requireNonNull(dataDir, "dataDir");
        Objects.requireNonNull(env, "env");
        Path file = dataDir.toAbsolutePath().normalize().resolve(KEY_FILE);
        String fromEnv = env.get(ENV_KEY);
        if (fromEnv != null) {
            return new SecretBox(decodeEnvKey(fromEnv), file, "the environment variable " + ENV_KEY);
        }
        return new SecretBox(readOrCreateKeyFile(file), file, "the key file " + file);
    }

    /** Whether {@code value} looks like the output of {@link #seal} (it has the {@value #PREFIX} prefix). */
    public static boolean isSealed(String value) {
        return value != null && value.startsWith(PREFIX);
    }

    /** Seals {@code plaintext} (UTF-8) under a fresh random nonce. */
    public String seal(String plaintext) {
        Objects.requireNonNull(plaintext, "plaintext");
        byte[] nonce = new byte[NONCE_BYTES];
        random.nextBytes(nonce);
        byte[] sealed;
        try {
            Cipher cipher = Cipher.getInstance(ALGORITHM);
            cipher.init(Cipher.ENCRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, nonce));
            cipher.updateAAD(AAD);
            sealed = cipher.doFinal(plaintext.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            // AES-GCM is required of every Java platform; this is a broken JDK, not bad input.
            throw new IllegalStateException("cannot seal a secret: " + ALGORITHM + " is unavailable in this JDK", e);
        }
        byte[] out = ByteBuffer.allocate(NONCE_BYTES + sealed.length)
                .put(nonce)
                .put(sealed)
                .array();
        return PREFIX + Base64.getEncoder().encodeToString(out);
    }

    /**
     * Opens a value made by {@link #seal}.
     *
     * @throws IllegalArgumentException when {@code sealed} does not start with {@value #PREFIX}
     * @throws UnsealException when the key does not match the one it was sealed with, or the value was altered
     */
    public String unseal(String sealed) {
        Objects.requireNonNull(sealed, "sealed");
        if (!isSealed(sealed)) {
            // The value may be a plain secret that was never sealed: say what it lacks, not what it is.
            throw new IllegalArgumentException("a sealed secret must start with '" + PREFIX + "', got a value of "
                    + sealed.length() + " characters without it");
        }
        byte[] raw;
        try {
            raw = Base64.getDecoder().decode(sealed.substring(PREFIX.length()));
        } catch (IllegalArgumentException e) {
            // The decoder's message quotes the offending character; it is not passed on.
            throw new UnsealException("the secret cannot be decrypted: the sealed value is corrupt (not valid base64)");
        }
        if (raw.length < NONCE_BYTES + TAG_BITS / 8) {
            throw new UnsealException(
                    "the secret cannot be decrypted: the sealed value is corrupt (it must hold at least "
                            + (NONCE_BYTES + TAG_BITS / 8) + " bytes, got: " + raw.length + ")");
        }
        try {
            Cipher cipher = Cipher.getInstance(ALGORITHM);
            cipher.init(Cipher.DECRYPT_MODE, key, new GCMParameterSpec(TAG_BITS, raw, 0, NONCE_BYTES));
            cipher.updateAAD(AAD);
            byte[] plain = cipher.doFinal(raw, NONCE_BYTES, raw.length - NONCE_BYTES);
            return new String(plain, StandardCharsets.UTF_8);
        } catch (AEADBadTagException e) {
            // GCM cannot tell a wrong key from an altered value; a wrong key is by far the likelier.
            throw new UnsealException(
                    "the secret cannot be decrypted: the key in use (" + keySource + ") does not match the one it was "
                            + "sealed with, or the sealed value was altered; set " + ENV_KEY + " or restore " + keyFile
                            + " to the key that was in use when the secret was stored");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot unseal a secret: " + ALGORITHM + " is unavailable in this JDK", e);
        }
    }

    /** Where the key came from ({@value #ENV_KEY} or the key file's path), for status output. Never the key. */
    public String keySource() {
        return keySource;
    }

    @Override
    public String toString() {
        return "SecretBox[key from " + keySource + "]";
    }

    /**
     * A sealed secret that cannot be opened with this box's key: the key changed, or the value was altered.
     * Not retriable: the right key must be restored.
     */
    public static final class UnsealException extends IllegalStateException {
        private static final long serialVersionUID = 1L;

        public UnsealException(String message) {
            super(message);
        }

        /** For callers that add where the secret was (never the secret) to the message of {@code cause}. */
        public UnsealException(String message, UnsealException cause) {
            super(message, cause);
        }
    }

    // --- the key ---

    private static byte[] decodeEnvKey(String value) {
        String trimmed = value.strip();
        String rule = ENV_KEY + " must be the base64 encoding of exactly " + KEY_BYTES
                + " bytes (e.g. the output of 'openssl rand -base64 32')";
        byte[] key;
        try {
            key = Base64.getDecoder().decode(trimmed);
        } catch (IllegalArgumentException e) {
            // Neither the value nor the decoder's message (it quotes a character) may reach a log.
            throw new IllegalArgumentException(
                    rule + ", got " + trimmed.length() + " characters that are not valid base64");
        }
        if (key.length != KEY_BYTES) {
            Arrays.fill(key, (byte) 0);
            throw new IllegalArgumentException(rule + ", got " + key.length + " bytes");
        }
        return key;
    }

    private static byte[] readOrCreateKeyFile(Path file) {
        try {
            if (!Files.exists(file)) {
                byte[] created = createKeyFile(file);
                if (created != null) {
                    return created;
                }
                // another process created it first: use theirs
            }
            return readKeyFile(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the secret key file " + file + ": " + e, e);
        }
    }

    private static byte[] readKeyFile(Path file) throws IOException {
        warnIfShared(file);
        byte[] key = Files.readAllBytes(file);
        if (key.length != KEY_BYTES) {
            int got = key.length;
            Arrays.fill(key, (byte) 0);
            throw new IllegalStateException("secret key file " + file + " must hold exactly " + KEY_BYTES
                    + " bytes, got: " + got + " (restore it from a backup, or set " + ENV_KEY + ")");
        }
        return key;
    }

    /**
     * Writes a new random key to a temporary file (0600 from creation where POSIX permissions exist) and
     * links it into place, so the key file is never seen half-written, and a key another process created in
     * the meantime is never replaced (a hard link, unlike a rename, fails when the target exists).
     *
     * @return the new key, or null when another process created the file first
     */
    private static byte[] createKeyFile(Path file) throws IOException {
        Path dir = file.getParent();
        Files.createDirectories(dir);
        boolean posix = Files.getFileAttributeView(dir, PosixFileAttributeView.class) != null;
        FileAttribute<?>[] attrs = posix
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_ONLY)}
                : new FileAttribute<?>[0];
        if (!posix) {
            LOG.warn(
                    "secret key file {}: the file system has no POSIX permissions; restrict access to it by other means",
                    file);
        }
        byte[] key = new byte[KEY_BYTES];
        new SecureRandom().nextBytes(key);
        Path tmp = Files.createTempFile(dir, "." + KEY_FILE + "-", ".tmp", attrs);
        try {
            try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
                ByteBuffer buf = ByteBuffer.wrap(key);
                while (buf.hasRemaining()) {
                    ch.write(buf);
                }
                ch.force(true);
            }
            try {
                Files.createLink(file, tmp);
            } catch (FileAlreadyExistsException e) {
                Arrays.fill(key, (byte) 0);
                return null;
            } catch (UnsupportedOperationException e) {
                // No hard links here: a plain move, which may replace a file created in the last instant.
                Files.move(tmp, file);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
        syncDirectory(dir);
        LOG.info("created the secret key file {}; back it up with the data directory", file);
        return key;
    }

    private static void warnIfShared(Path file) {
        PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
        if (view == null) {
            return;
        }
        try {
            Set<PosixFilePermission> perms = view.readAttributes().permissions();
            if (perms.stream().anyMatch(GROUP_OR_OTHERS::contains)) {
                LOG.warn(
                        "secret key file {} is accessible by group or others (permissions {}); restrict it with chmod 600",
                        file,
                        PosixFilePermissions.toString(perms));
            }
        } catch (IOException e) {
            LOG.warn("secret key file {}: cannot read its permissions: {}", file, e.toString());
        }
    }

    /** Makes the new directory entry durable; not every platform can open a directory, so best effort. */
    private static void syncDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException | UnsupportedOperationException e) {
            LOG.debug("cannot sync directory {} after creating the key file: {}", dir, e.toString());
        }
    }
}

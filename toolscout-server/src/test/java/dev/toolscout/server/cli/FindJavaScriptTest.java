package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code find-java.sh} where no JDK 21+ is found: docs/JAVA.md has users source it in their own shell, which must stay
 * open; the launchers source it under {@code set -e} and must stop. The script is run with its JDK folders pointed at
 * an empty one (the machine's own JDKs would otherwise be found).
 */
class FindJavaScriptTest {
    @TempDir
    Path dir;

    private Path scriptWithoutJdks() throws IOException {
        Path repo = Path.of("..").toAbsolutePath().normalize();
        String s = Files.readString(repo.resolve("find-java.sh"));
        String folders = "/usr/lib/jvm/* /opt/java/* /opt/jdk* /usr/local/jdk* \"$HOME\"/.sdkman/candidates/java/*"
                + " /Library/Java/JavaVirtualMachines/*/Contents/Home";
        assertThat(s)
                .as("find-java.sh's JDK folders, as this test replaces them")
                .contains(folders);
        Path script = dir.resolve("find-java.sh");
        Files.writeString(script, s.replace(folders, dir.resolve("none") + "/*"));
        return script;
    }

    private Result bash(String command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).directory(dir.toFile());
        pb.environment().remove("JAVA_HOME");
        pb.environment().put("PATH", "/bin:/usr/bin/nonexistent");
        pb.environment().put("HOME", dir.toString());
        Process p = pb.start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return new Result(
                p.exitValue(),
                new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8),
                new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    record Result(int code, String out, String err) {}

    @Test
    void without_a_jdk_a_users_shell_that_sources_it_stays_open_and_a_launcher_stops() throws Exception {
        Path script = scriptWithoutJdks();

        Result shell = bash("source " + script + "; echo \"still open, status $?\"");
        assertThat(shell.out()).isEqualTo("still open, status 1\n");
        assertThat(shell.err()).contains("toolscout: no JDK 21 or newer found");

        Result launcher = bash("set -euo pipefail; source " + script + "; echo went on");
        assertThat(launcher.code()).isEqualTo(1);
        assertThat(launcher.out()).isEmpty();

        assertThat(bash("bash " + script).code()).isEqualTo(1);
    }
}

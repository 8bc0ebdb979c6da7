package dev.toolscout.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.server.cli.ToolScoutCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * While `serve` runs in another process on a data directory, the commands that only read it (select, find, list,
 * describe, policy show) open it read-only and answer as they would on their own; the ones that write are refused.
 */
class ReadBesideServeProcessTest {
    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {}

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = ToolScoutCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(code, out.toString(), err.toString());
    }

    private static String[] args(Path data, String... command) {
        List<String> a = new ArrayList<>(List.of(command));
        a.add("--data-dir");
        a.add(data.toString());
        return a.toArray(String[]::new);
    }

    @Test
    void select_find_list_describe_and_policy_show_read_a_directory_serve_holds_and_change_nothing() throws Exception {
        Path data = dir.resolve("data");
        Map<String, String[]> reads = new LinkedHashMap<>();
        reads.put("select", args(data, "select", "Schedule a meeting for tomorrow at 2pm"));
        reads.put(
                "select --format json",
                args(data, "select", "Send the report to the team by email", "--format", "json"));
        reads.put("find", args(data, "find", "send an email", "--limit", "5"));
        reads.put("list", args(data, "list", "--category", "communication"));
        reads.put("describe", args(data, "describe", "gmail__send_email"));
        reads.put("policy show", args(data, "policy", "show"));
        // what each prints on a directory nobody else holds (the first also embeds the demo, so serve starts at once)
        Map<String, String> alone = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> r : reads.entrySet()) {
            Run result = run(r.getValue());
            assertThat(result.code()).as(r.getKey() + ": " + result.err()).isZero();
            alone.put(r.getKey(), result.out());
        }

        Path log = dir.resolve("serve.log");
        Process serve = ServeProcesses.start(
                log, ServeProcesses.command("serve", "--port", "0", "--data-dir", data.toString()));
        try {
            ServeProcesses.awaitOutput(serve, log, "MCP gateway listening on");
            String holder = "another process (pid " + serve.pid() + ", since ";
            Map<String, String> before = files(data);

            for (Map.Entry<String, String[]> r : reads.entrySet()) {
                Run result = run(r.getValue());
                assertThat(result.code()).as(r.getKey() + ": " + result.err()).isZero();
                assertThat(result.out()).as(r.getKey()).isEqualTo(alone.get(r.getKey()));
                // said once, in one line: who holds the directory, and that this is the store as of now
                assertThat(result.err())
                        .as(r.getKey())
                        .startsWith("toolscout: data directory " + data + " is in use by " + holder)
                        .endsWith("; reading it read-only: results reflect its store as of now\n")
                        .hasLineCount(1);
            }

            Path weather = dir.resolve("weather.json");
            Files.writeString(
                    weather, "{\"tools\":[{\"name\":\"weather__forecast\",\"description\":\"Weather forecast.\"}]}");
            Run index = run(args(data, "index", weather.toString()));
            assertThat(index.code()).isEqualTo(ToolScoutCli.BAD_INPUT);
            assertThat(index.err())
                    .startsWith("toolscout index: error: data directory " + data + " is in use by " + holder)
                    .hasLineCount(1);
            Run remove = run(args(data, "remove", "gmail__send_email"));
            assertThat(remove.code()).isEqualTo(ToolScoutCli.BAD_INPUT);
            assertThat(remove.err()).startsWith("toolscout remove: error: data directory " + data + " is in use by ");

            // options that would write are named, not silently dropped
            Run withCatalog = run(args(data, "select", "weather tomorrow", "--catalog", weather.toString()));
            assertThat(withCatalog.code()).isEqualTo(ToolScoutCli.BAD_INPUT);
            assertThat(withCatalog.err())
                    .startsWith("toolscout select: error: --catalog: 1 of the files' tools are not in "
                            + "data directory " + data
                            + " as the files have them ('weather__forecast'); it is in use by " + holder);
            Path servers = dir.resolve("servers.json");
            Files.writeString(servers, "{\"mcpServers\":{}}");
            Run withServers = run(args(data, "find", "weather", "--servers", servers.toString()));
            assertThat(withServers.code()).isEqualTo(ToolScoutCli.BAD_INPUT);
            assertThat(withServers.err())
                    .startsWith("toolscout find: error: --servers would add tools to data directory " + data
                            + ", which is in use by " + holder);

            assertThat(files(data)).as("nothing in the data directory changed").isEqualTo(before);
            assertThat(serve.isAlive()).isTrue();
        } finally {
            serve.destroy();
            serve.waitFor(60, TimeUnit.SECONDS);
            serve.destroyForcibly();
        }
        Run after = run(reads.get("describe"));
        assertThat(after.out()).isEqualTo(alone.get("describe"));
        assertThat(after.err())
                .as("a directory nobody holds opens for writing again, without the note")
                .isEmpty();
    }

    /**
     * A hash of every file under {@code root}, except SQLite's {@code state.db-shm} and {@code state.db-wal}: a
     * reader of a WAL database records its read position in the -shm; neither holds data of its own.
     */
    private static Map<String, String> files(Path root) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.filter(Files::isRegularFile).toList()) {
                String name = root.relativize(p).toString();
                if (!name.equals("state.db-shm") && !name.equals("state.db-wal")) {
                    out.put(
                            name,
                            HexFormat.of()
                                    .formatHex(
                                            MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p))));
                }
            }
        }
        return out;
    }
}

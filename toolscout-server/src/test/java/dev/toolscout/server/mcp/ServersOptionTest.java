package dev.toolscout.server.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --servers FILE} on select and find: upstream tools are ranked with every other tool. */
class ServersOptionTest {
    static final Path PEERS = GatewayEndToEndTest.PEERS;

    @TempDir
    Path dir;

    Path serversFile() throws Exception {
        Path files = Files.createDirectories(dir.resolve("files"));
        Path f = dir.resolve("claude_desktop_config.json");
        Files.writeString(f, """
        {"mcpServers": {
          "workspace": {"command": "node", "args": ["%s", "%s"]}
        }}""".formatted(
                        PEERS.resolve("node_modules/@modelcontextprotocol/server-filesystem/dist/index.js"), files));
        return f;
    }

    static List<String> names(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(n -> out.add(n.get("name").asText()));
        return out;
    }

    @Test
    void find_and_select_rank_the_tools_of_declared_servers() throws Exception {
        Path servers = serversFile();
        String data = dir.resolve("data").toString();

        String[] find = McpPersistenceTest.run(
                "find",
                "read the contents of a text file",
                "--limit",
                "3",
                "--servers",
                servers.toString(),
                "--data-dir",
                data);
        assertThat(find[0]).as(find[2]).isEqualTo("0");
        assertThat(find[2]).doesNotContain("not available");
        assertThat(names(new ObjectMapper().readTree(find[1]).get("tools"))).contains("workspace__read_text_file");

        String[] select = McpPersistenceTest.run(
                "select",
                "show me the directory tree of my project folder",
                "--format",
                "json",
                "--servers",
                servers.toString(),
                "--data-dir",
                data);
        assertThat(select[0]).as(select[2]).isEqualTo("0");
        assertThat(names(new ObjectMapper().readTree(select[1]).get("selected")))
                .contains("workspace__directory_tree");
    }

    @Test
    void a_server_that_never_answers_delays_the_answer_only_by_the_wait_and_is_named() throws Exception {
        Path servers = dir.resolve("slow.json");
        Files.writeString(servers, """
        {"mcpServers": {"silent": {"command": "node", "args": ["-e", "setInterval(() => {}, 1000)"]}}}""");

        String[] r = McpPersistenceTest.run(
                "find",
                "read a file",
                "--limit",
                "2",
                "--servers",
                servers.toString(),
                "--servers-wait",
                "1",
                "--data-dir",
                dir.resolve("data").toString());

        assertThat(r[0]).as(r[2]).isEqualTo("0");
        assertThat(r[2])
                .contains("MCP server 'silent' is still connecting after 1 s; its tools are not in this answer");
        assertThat(names(new ObjectMapper().readTree(r[1]).get("tools"))).hasSize(2);
    }

    @Test
    void a_bad_servers_file_is_refused_before_anything_is_opened() throws Exception {
        Path bad = dir.resolve("bad.json");
        Files.writeString(
                bad, "{\"mcpServers\": {\"x\": {\"command\": \"node\", \"url\": \"http://127.0.0.1:1/mcp\"}}}");
        Path data = dir.resolve("data");

        String[] r =
                McpPersistenceTest.run("find", "anything", "--servers", bad.toString(), "--data-dir", data.toString());

        assertThat(r[0]).isEqualTo("2");
        assertThat(r[2]).contains(bad.toString()).contains("mcpServers.x");
        assertThat(data).doesNotExist();
    }
}

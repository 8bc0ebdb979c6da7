package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PostgreSQL store the command cannot connect to is one line naming the store (without its password), what the
 * address asked for and the server's reason, exit code 1: no stack trace (docs/DEPLOYMENT.md's {@code
 * sslmode=require} against a server without SSL).
 */
class StoreConnectionCliTest {
    @TempDir
    Path dir;

    private String err;

    private int run(String... args) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = ToolScoutCli.run(args, new PrintWriter(o, true), new PrintWriter(e, true));
        err = e.toString();
        return code;
    }

    @Test
    void sslmode_require_against_a_server_without_ssl_is_one_line_naming_the_store_the_rule_and_the_cause()
            throws Exception {
        try (NoSslServer server = new NoSslServer()) {
            String store = "postgresql://app:Secret-pw-1@127.0.0.1:" + server.port()
                    + "/toolscout?schema=toolscout&sslmode=require";

            int code = run("select", "book a meeting", "--store", store, "--data-dir", dir.toString());

            assertThat(code).isEqualTo(1);
            assertThat(err.lines().toList())
                    .containsExactly("toolscout select: error: state store postgresql://app@127.0.0.1:" + server.port()
                            + "/toolscout?schema=toolscout: cannot connect and create schema toolscout with "
                            + "sslmode=require (the server must offer SSL): The server does not support SSL.");
            assertThat(server.sslRequests).isPositive();
        }
    }

    @Test
    void a_store_address_where_no_server_listens_is_one_line_naming_it() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }

        int code = run(
                "select",
                "book a meeting",
                "--store",
                "postgresql://app:Secret-pw-1@127.0.0.1:" + port + "/toolscout",
                "--data-dir",
                dir.toString());

        assertThat(code).isEqualTo(1);
        assertThat(err.lines().toList())
                .singleElement()
                .asString()
                .startsWith("toolscout select: error: state store postgresql://app@127.0.0.1:" + port
                        + "/toolscout?schema=public: cannot connect and create schema public: ")
                .doesNotContain("Secret-pw-1");
    }

    /**
     * What a PostgreSQL server without SSL answers to a client that asks for it (the protocol's SSLRequest: 8 bytes,
     * length 8 and the code 80877103), a single byte {@code N}, then the connection closes: a real server's answer
     * whatever the test PostgreSQL's own SSL setting is.
     */
    private static final class NoSslServer implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        volatile int sslRequests;

        NoSslServer() throws IOException {
            Thread.ofPlatform().daemon().name("no-ssl-postgres").start(this::serve);
        }

        int port() {
            return socket.getLocalPort();
        }

        private void serve() {
            while (!socket.isClosed()) {
                try (Socket c = socket.accept()) {
                    DataInputStream in = new DataInputStream(c.getInputStream());
                    int length = in.readInt();
                    int code = in.readInt();
                    if (length == 8 && code == 80877103) {
                        sslRequests++;
                        c.getOutputStream().write('N');
                        c.getOutputStream().flush();
                    }
                } catch (IOException e) {
                    // closed by close(), or a client that went away: the next accept tells which
                }
            }
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }
}

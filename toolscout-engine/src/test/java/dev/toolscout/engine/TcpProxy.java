package dev.toolscout.engine;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy on a loopback port to a target, which a test can cut (every connection through it is closed, and new
 * ones are closed at once) and restore: PostgreSQL lost and back, without stopping the server other tests share.
 */
final class TcpProxy implements AutoCloseable {
    private final ServerSocket server;
    private final String host;
    private final int port;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile boolean up = true;

    TcpProxy(String host, int port) throws IOException {
        this.host = host;
        this.port = port;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("tcp-proxy").start(this::accept);
    }

    int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket in = server.accept();
                if (!up) {
                    in.close();
                    continue;
                }
                Socket out = new Socket(host, port);
                open.add(in);
                open.add(out);
                pump(in, out);
                pump(out, in);
            } catch (IOException e) {
                // closed, or one connection failed: go on accepting until closed
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread.ofPlatform().daemon().start(() -> {
            byte[] buf = new byte[16 * 1024];
            try (InputStream i = from.getInputStream();
                    OutputStream o = to.getOutputStream()) {
                for (int n; (n = i.read(buf)) >= 0; ) {
                    o.write(buf, 0, n);
                    o.flush();
                }
            } catch (IOException e) {
                // the other side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        });
    }

    /** Closes every connection through the proxy, and each new one as it comes. */
    void cut() {
        up = false;
        open.forEach(TcpProxy::closeQuietly);
        open.clear();
    }

    /** Lets connections through again. */
    void restore() {
        up = true;
    }

    private static void closeQuietly(Socket s) {
        try {
            s.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        cut();
        server.close();
    }
}

package dev.toolscout.agent;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A real server on a loopback port that accepts every connection and never answers: a model or an HTTP API that
 * hangs. {@link #goAway} (and {@link #close}) stops accepting and closes every connection it holds, so the calls
 * waiting on it end.
 */
public final class HangingServer implements AutoCloseable {
    private final ServerSocket socket;
    private final List<Socket> accepted = new CopyOnWriteArrayList<>();

    public HangingServer() throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread.ofVirtual().start(() -> {
            try {
                while (true) {
                    accepted.add(socket.accept());
                }
            } catch (IOException closed) {
                // closed: the test is over
            }
        });
    }

    /** {@code http://127.0.0.1:PORT}. */
    public String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /** The connections accepted so far. */
    public int connections() {
        return accepted.size();
    }

    /** Waits up to a minute for the first connection; returns how many there are then. */
    public int awaitConnection() throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (accepted.isEmpty() && System.nanoTime() < until) {
            Thread.sleep(10);
        }
        return accepted.size();
    }

    @Override
    public void close() throws IOException {
        goAway();
    }

    /** The server goes away: no new connection is accepted, and those it holds are closed. Idempotent. */
    public void goAway() throws IOException {
        socket.close();
        for (Socket s : accepted) {
            s.close();
        }
    }
}

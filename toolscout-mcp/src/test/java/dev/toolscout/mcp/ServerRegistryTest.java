package dev.toolscout.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.events.EventBus;
import dev.toolscout.mcp.secret.SecretBox;
import dev.toolscout.mcp.upstream.ServerConfig;
import dev.toolscout.mcp.upstream.ServerStatus;
import dev.toolscout.mcp.upstream.UpstreamLimits;
import dev.toolscout.mcp.upstream.UpstreamManager;
import dev.toolscout.state.InMemoryStateStore;
import dev.toolscout.state.StateStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The registry against reconcile, which replicas' changes run on other threads while a request adds a server. */
class ServerRegistryTest {
    @TempDir
    Path tmp;

    InMemoryStateStore store;
    ServerRegistry registry;

    @BeforeEach
    void open() {
        store = new InMemoryStateStore();
        Catalog catalog = Catalog.load(store, new EventBus(), Map.of());
        UpstreamManager manager = new UpstreamManager(
                catalog,
                new UpstreamLimits(1024 * 1024, Duration.ofMillis(200), Duration.ofSeconds(30), Duration.ofMinutes(5)));
        registry = new ServerRegistry(store, SecretBox.open(tmp, Map.of()), manager);
    }

    @AfterEach
    void close() {
        registry.close();
    }

    @Test
    void a_reconcile_while_an_add_waits_for_the_first_attempt_leaves_the_new_server_connected() throws Exception {
        // a stdio "server" that never answers: the add waits its whole wait, as for a slow or offline server
        ServerConfig slow = ServerConfig.stdio("slow", "sh", List.of("-c", "sleep 30"));
        CompletableFuture<ServerStatus> added =
                CompletableFuture.supplyAsync(() -> registry.add(slow, Duration.ofSeconds(2), true));
        long end = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (registry.manager().config("slow").isEmpty() && System.nanoTime() < end) {
            Thread.sleep(10);
        }
        assertThat(registry.manager().config("slow"))
                .as("connecting before the reconcile")
                .isPresent();

        registry.reconcile(); // another replica changed the servers: neither the store nor a file holds "slow" yet

        ServerStatus s = added.get();
        assertThat(s.state()).isNotIn(ServerStatus.State.READY, ServerStatus.State.DEGRADED);
        assertThat(registry.manager().config("slow"))
                .as("still connected after the add")
                .isPresent();
        assertThat(store.loadServers())
                .extracting(StateStore.StoredServer::name)
                .containsExactly("slow");

        registry.reconcile(); // stored now: kept
        assertThat(registry.manager().config("slow")).isPresent();
    }

    @Test
    void an_unreachable_server_not_to_be_stored_is_disconnected_and_not_stored() {
        ServerConfig slow = ServerConfig.stdio("slow", "sh", List.of("-c", "sleep 30"));

        registry.add(slow, Duration.ofMillis(300), false);

        assertThat(registry.manager().config("slow")).isEmpty();
        assertThat(store.loadServers()).isEmpty();
    }
}

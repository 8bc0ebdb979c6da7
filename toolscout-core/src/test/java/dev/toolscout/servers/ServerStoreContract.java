package dev.toolscout.servers;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.catalog.CatalogStore.StoredCatalog;
import dev.toolscout.servers.ServerStore.StoredServer;
import dev.toolscout.state.StateStore;
import dev.toolscout.state.StoreContract;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** What every {@link ServerStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class ServerStoreContract extends StoreContract {
    // --- registered servers ---

    @Test
    void servers_round_trip_exactly_and_survive_reopen() {
        StoredServer github = server("github", "{\"command\":\"npx\",\"args\":[\"-y\",\"@mcp/github\"]}");
        // The JSON is opaque: odd spacing, unicode and sealed-looking values come back byte for byte.
        StoredServer odd = server(
                "Notizen ✓",
                "{ \"url\" : \"https://example.com/mcp\",\n  \"apiKey\": \"enc:v1:AAEC+/==\", \"x\": \"中🚀\" }");

        store.saveServer(github);
        store.saveServer(odd);

        assertThat(store.loadServers()).containsExactly(odd, github);
        assertThat(reopened().loadServers()).containsExactly(odd, github);
    }

    @Test
    void saving_a_server_again_replaces_it() {
        store.saveServer(server("github", "{\"v\":1}"));
        store.saveServer(server("slack", "{\"v\":1}"));

        store.saveServer(server("github", "{\"v\":2}"));

        assertThat(store.loadServers()).containsExactly(server("github", "{\"v\":2}"), server("slack", "{\"v\":1}"));
        assertThat(reopened().loadServers())
                .containsExactly(server("github", "{\"v\":2}"), server("slack", "{\"v\":1}"));
    }

    @Test
    void a_disabled_server_stays_disabled_across_reopen_until_enabled() {
        store.saveServer(server("github", "{}"));

        boolean disabled = store.setServerDisabled("github", true);
        boolean again = store.setServerDisabled("github", true);
        // a server of a --servers file is not stored, and is disabled by name all the same
        boolean declared = store.setServerDisabled("Notizen ✓", true);

        assertThat(disabled).isTrue();
        assertThat(again).isFalse();
        assertThat(declared).isTrue();
        assertThat(store.loadDisabledServers()).containsExactly("Notizen ✓", "github");
        StateStore other = reopened();
        assertThat(other.loadDisabledServers()).containsExactly("Notizen ✓", "github");
        assertThat(other.loadServers()).containsExactly(server("github", "{}"));

        boolean enabled = store.setServerDisabled("github", false);
        boolean enabledAgain = store.setServerDisabled("github", false);

        assertThat(enabled).isTrue();
        assertThat(enabledAgain).isFalse();
        assertThat(reopened().loadDisabledServers()).containsExactly("Notizen ✓");
    }

    @Test
    void delete_server_reports_whether_one_was_removed() {
        store.saveServer(server("github", "{}"));
        store.saveServer(server("slack", "{}"));

        boolean first = store.deleteServer("github");
        boolean again = store.deleteServer("github");
        boolean unknown = store.deleteServer("never-stored");

        assertThat(first).isTrue();
        assertThat(again).isFalse();
        assertThat(unknown).isFalse();
        assertThat(store.loadServers()).containsExactly(server("slack", "{}"));
        assertThat(reopened().loadServers()).containsExactly(server("slack", "{}"));
    }

    @Test
    void servers_load_in_name_order() {
        // "ｚ" (U+FF5A) sorts after "🚀" in Java's UTF-16 order but before it in UTF-8 byte order.
        List<String> names =
                new ArrayList<>(List.of("slack", "github", "Zendesk", "a-b", "a_b", "a", "ä", "ｚ", "🚀", "10", "9"));
        Collections.shuffle(names, new Random(5));

        names.forEach(n -> store.saveServer(server(n, "{\"name\":\"" + n + "\"}")));

        assertThat(store.loadServers()).extracting(StoredServer::name).containsExactlyElementsOf(new TreeSet<>(names));
    }

    @Test
    void servers_are_kept_apart_from_the_catalog_and_the_policy() {
        store.applyCatalogChange(List.of(tool("github__search")), List.of());
        store.savePolicyJson(json(samplePolicy()));

        store.saveServer(server("github", "{}"));
        store.deleteServer("github");

        assertThat(store.loadServers()).isEmpty();
        assertThat(store.loadCatalog()).isEqualTo(new StoredCatalog(1, List.of(tool("github__search"))));
        assertThat(store.loadPolicyJson()).contains(json(samplePolicy()));
    }

    @Test
    void stored_server_needs_a_name_and_json() {
        assertThatThrownBy(() -> new StoredServer("  ", "{}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name must not be blank, got: '  '");
        assertThatThrownBy(() -> new StoredServer(null, "{}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("name must not be blank, got: 'null'");
        assertThatThrownBy(() -> new StoredServer("github", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'github'")
                .hasMessageContaining("configJson must not be null");
    }
}

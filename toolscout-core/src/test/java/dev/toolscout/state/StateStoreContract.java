package dev.toolscout.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.catalog.CatalogStore.StoredCatalog;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * What every {@link StateStore} must do as a whole: everything it holds survives a restart. Each concept's own
 * contract ({@code CatalogStoreContract}, {@code ApprovalStoreContract}, ...) says what its part must do; a store
 * module runs all of them against each implementation (SQLite, PostgreSQL).
 */
public abstract class StateStoreContract extends StoreContract {
    // --- restart ---

    @Test
    void reopen_keeps_everything() {
        store.applyCatalogChange(List.of(tool("crm__a"), richTool()), List.of());
        store.applyCatalogChange(List.of(tool("crm__b")), List.of("crm__a"));
        float[] v = randomVector(new Random(3), 384);
        store.saveVectors(MODEL, Map.of("h", v));
        store.savePolicyJson(json(samplePolicy()));
        store.saveServer(server("github", "{\"command\":\"npx\"}"));
        StoredCatalog before = store.loadCatalog();

        StateStore again = reopened();

        assertThat(again.catalogVersion()).isEqualTo(2);
        assertThat(again.loadCatalog()).isEqualTo(before);
        assertThat(rawBits(again.loadVectors(MODEL, List.of("h")).get("h"))).containsExactly(rawBits(v));
        assertThat(again.loadPolicyJson()).contains(json(samplePolicy()));
        assertThat(again.loadServers()).containsExactly(server("github", "{\"command\":\"npx\"}"));
        assertThat(again.applyCatalogChange(List.of(), List.of())).isEqualTo(3);
    }
}

package dev.toolscout.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.toolscout.model.ToolSpec;
import dev.toolscout.state.StateStore;
import dev.toolscout.state.StateStoreContract;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

class PostgresStateStoreTest extends StateStoreContract {
    private static final PostgresTestDatabase DB = new PostgresTestDatabase();
    private String address;

    @AfterAll
    static void dropSchemas() throws SQLException {
        DB.dropAll();
    }

    @Override
    protected StateStore newStore() {
        address = DB.newSchema();
        return PostgresStateStore.open(address);
    }

    @Override
    protected StateStore reopen() {
        return PostgresStateStore.open(address);
    }

    private PostgresStateStore pg() {
        return (PostgresStateStore) store;
    }

    @Test
    void catalog_since_a_version_names_upserts_and_removals_after_it() {
        pg().applyCatalogChange(List.of(tool("demo__a"), tool("demo__b")), List.of());
        long v1 = pg().catalogVersion();
        pg().applyCatalogChange(List.of(tool("demo__c")), List.of("demo__a"));
        pg().applyCatalogChange(List.of(tool("demo__a")), List.of("demo__b"));

        dev.toolscout.catalog.Catalog.StoredChange d = pg().catalogSince(v1);

        assertThat(d.version()).isEqualTo(v1 + 2);
        assertThat(d.upserts()).extracting(ToolSpec::fullName).containsExactly("demo__a", "demo__c");
        assertThat(d.removals()).containsExactly("demo__b");
        assertThat(pg().catalogSince(d.version()).upserts()).isEmpty();
    }

    @Test
    void every_write_is_in_the_change_log_in_order() {
        long before = pg().lastChange();
        pg().applyCatalogChange(List.of(tool("demo__a")), List.of());
        pg().savePolicyJson("{}");
        pg().saveSkill(new StateStore.StoredSkill("s", "{}"));

        PostgresStateStore.Changes c = pg().changesSince(before);

        assertThat(c.areas())
                .containsExactlyInAnyOrder(
                        PostgresStateStore.Area.CATALOG,
                        PostgresStateStore.Area.POLICY,
                        PostgresStateStore.Area.SKILLS);
        assertThat(c.last()).isEqualTo(pg().lastChange());
        assertThat(c.gap()).isFalse();
        assertThat(pg().changesSince(c.last()).areas()).isEmpty();
    }

    @Test
    void replicas_embedding_the_same_texts_at_once_embed_each_text_once() throws Exception {
        Map<String, String> texts = new LinkedHashMap<>();
        for (int i = 0; i < 40; i++) {
            texts.put("hash-" + i, "text " + i);
        }
        AtomicInteger embedded = new AtomicInteger();
        List<PostgresStateStore> replicas = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            replicas.add(PostgresStateStore.open(address));
        }
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            List<Future<Map<String, float[]>>> results = new ArrayList<>();
            for (PostgresStateStore r : replicas) {
                List<String> order = new ArrayList<>(texts.keySet());
                Collections.shuffle(order);
                Map<String, String> mine = new LinkedHashMap<>();
                order.forEach(h -> mine.put(h, texts.get(h)));
                results.add(pool.submit(() -> {
                    start.await();
                    return r.vectors(MODEL, mine, batch -> {
                        embedded.addAndGet(batch.size());
                        return batch.stream()
                                .map(t -> new float[] {t.length(), 1f})
                                .toList();
                    });
                }));
            }
            start.countDown();
            for (Future<Map<String, float[]>> f : results) {
                assertThat(f.get()).containsOnlyKeys(texts.keySet());
            }
        } finally {
            pool.shutdownNow();
            replicas.forEach(PostgresStateStore::close);
        }

        assertThat(embedded.get()).isEqualTo(texts.size());
        assertThat(pg().loadVectors(MODEL, texts.keySet())).hasSize(texts.size());
    }

    @Test
    void only_one_process_at_a_time_holds_a_servers_lock() {
        try (PostgresStateStore other = PostgresStateStore.open(address)) {
            boolean[] inner = {true};
            boolean ran = pg().whileHoldingServerLock(
                            "github", () -> inner[0] = other.whileHoldingServerLock("github", () -> {}));

            assertThat(ran).isTrue();
            assertThat(inner[0]).isFalse();
            assertThat(other.whileHoldingServerLock("github", () -> {})).isTrue();
        }
    }

    @Test
    void an_unreachable_server_is_named_without_its_password() {
        assertThatThrownBy(() -> PostgresStateStore.open("postgresql://someone:s3cret@127.0.0.1:1/test"))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("postgresql://someone@127.0.0.1:1/test")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void an_address_that_is_not_postgresql_is_refused_naming_it() {
        assertThatThrownBy(() -> PostgresUrl.parse("mysql://h/db"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("postgresql://")
                .hasMessageContaining("mysql://h/db");
        assertThatThrownBy(() -> PostgresUrl.parse("postgresql://h/db?schema=Bad-Name"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("schema")
                .hasMessageContaining("Bad-Name");
        assertThatThrownBy(() -> PostgresUrl.parse("postgresql://u:pw@h"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageNotContaining("pw@");
    }

    @Test
    void address_parameters_go_to_the_driver_and_the_password_stays_out_of_the_display() {
        PostgresUrl u = PostgresUrl.parse("postgresql://me:pw@db.example:6543/tools?schema=ts&sslmode=require");

        assertThat(u.jdbcUrl()).isEqualTo("jdbc:postgresql://db.example:6543/tools?sslmode=require&currentSchema=ts");
        assertThat(u.user()).isEqualTo("me");
        assertThat(u.password()).isEqualTo("pw");
        assertThat(u.display())
                .isEqualTo("postgresql://me@db.example:6543/tools?schema=ts")
                .doesNotContain("pw");
    }
}

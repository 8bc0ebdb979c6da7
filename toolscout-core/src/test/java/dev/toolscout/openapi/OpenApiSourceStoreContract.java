package dev.toolscout.openapi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.state.StoreContract;
import org.junit.jupiter.api.Test;

/** What every {@link OpenApiSourceStore} must do. Run against each implementation (SQLite, PostgreSQL). */
public abstract class OpenApiSourceStoreContract extends StoreContract {
    // --- imported OpenAPI sources ---

    @Test
    void openapi_sources_round_trip_exactly_replace_by_name_and_survive_reopen() {
        String petstore =
                "{ \"name\": \"petstore\", \"auth\": {\"secret_sealed\": \"enc:v1:AAEC+/==\"}, \"x\": \"中🚀\" }";
        store.saveOpenApiSource("petstore", "{\"v\":1}");
        store.saveOpenApiSource("petstore", petstore);
        store.saveOpenApiSource("crm", "{}");

        assertThat(store.loadOpenApiSource("petstore")).contains(petstore);
        assertThat(reopened().loadOpenApiSource("petstore")).contains(petstore);
        assertThat(store.loadOpenApiSource("crm")).contains("{}");
        assertThat(store.loadOpenApiSource("never-stored")).isEmpty();
        // one catalog version, untouched by a source's configuration
        assertThat(store.catalogVersion()).isZero();
    }

    @Test
    void delete_openapi_source_reports_whether_one_was_removed_and_leaves_the_others() {
        store.saveOpenApiSource("petstore", "{}");
        store.saveOpenApiSource("crm", "{}");

        boolean first = store.deleteOpenApiSource("petstore");
        boolean again = store.deleteOpenApiSource("petstore");

        assertThat(first).isTrue();
        assertThat(again).isFalse();
        assertThat(reopened().loadOpenApiSource("petstore")).isEmpty();
        assertThat(store.loadOpenApiSource("crm")).contains("{}");
    }
}

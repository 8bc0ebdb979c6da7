package dev.toolscout.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The tests' PostgreSQL: the named server or an embedded one, and a named server that does not answer fails loudly. */
class TestPostgresTest {
    @Test
    void the_test_server_answers_and_an_embedded_one_keeps_its_data_under_the_temporary_directory() throws Exception {
        TestPostgres.Server server = TestPostgres.server();
        try (Connection c = server.connect();
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SHOW data_directory")) {
            assertThat(rs.next()).isTrue();
            if (server.embedded()) {
                assertThat(Path.of(rs.getString(1)).toRealPath())
                        .startsWith(
                                Path.of(System.getProperty("java.io.tmpdir")).toRealPath());
            }
        }
        assertThat(server.embedded())
                .as("embedded exactly when %s names no server", TestPostgres.ENV)
                .isEqualTo(blank(System.getenv(TestPostgres.ENV)) && blank(System.getenv(TestPostgres.OLD_ENV)));
    }

    @Test
    void a_named_server_that_does_not_answer_fails_naming_the_variable_and_the_address_without_its_password() {
        assertThatThrownBy(() -> TestPostgres.start(Map.of(TestPostgres.ENV, "postgresql://ann:s3cret@127.0.0.1:1/db")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("TOOLSCOUT_TEST_PG names postgresql://ann@127.0.0.1:1/db, which does not answer")
                .hasMessageContaining("unset TOOLSCOUT_TEST_PG")
                .hasMessageNotContaining("s3cret");
    }

    @Test
    void the_former_variable_name_is_read_when_the_new_one_is_not_set() {
        assertThatThrownBy(() ->
                        TestPostgres.start(Map.of(TestPostgres.OLD_ENV, "postgresql://postgres@127.0.0.1:1/test")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("TOOLSCOUT_TEST_POSTGRES names postgresql://postgres@127.0.0.1:1/test");
    }

    @Test
    void a_named_address_keeps_its_driver_parameters_and_refuses_a_schema() {
        TestPostgres.Server s = TestPostgres.parse("V", "postgresql://u:pw@db.example:6543/tools?sslmode=disable");

        assertThat(s.url("ts_x")).isEqualTo("postgresql://u:pw@db.example:6543/tools?sslmode=disable&schema=ts_x");
        assertThat(s.at("127.0.0.1", 7000).url("ts_x"))
                .isEqualTo("postgresql://u:pw@127.0.0.1:7000/tools?sslmode=disable&schema=ts_x");
        assertThat(s.toString()).doesNotContain("pw");
        assertThatThrownBy(() -> TestPostgres.parse("V", "postgresql://u@h:1/db?schema=mine"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("V must name a database, not a schema");
        assertThatThrownBy(() -> TestPostgres.parse("V", "mysql://h/db"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("V: store address must start with postgresql://");
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}

package dev.toolscout.store;

import dev.toolscout.servers.ServerStore;
import dev.toolscout.store.PostgresStateStore.Area;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.jdbi.v3.core.statement.Update;

/**
 * The registered servers' and the disabled names' SQL ({@link ServerStore}). Thread-safe as the store it belongs to.
 */
interface ServerSql extends ServerStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    @Override
    default List<StoredServer> loadServers() {
        List<String[]> rows = db().query(
                        "load the registered servers",
                        h -> h.createQuery("SELECT name, config_json FROM mcp_servers ORDER BY name")
                                .map(SqlDialect.PAIR)
                                .list());
        List<StoredServer> servers = new ArrayList<>(rows.size());
        for (String[] r : rows) {
            try {
                servers.add(new StoredServer(r[0], r[1]));
            } catch (IllegalArgumentException e) {
                // Only a row edited by hand can get here: the columns are NOT NULL and saveServer validates.
                throw db().invalidRow(db().rowOf() + "server", r[0], e);
            }
        }
        servers.sort(Comparator.comparing(StoredServer::name));
        return List.copyOf(servers);
    }

    @Override
    default void saveServer(StoredServer server) {
        Objects.requireNonNull(server, "server");
        db().write("save server '" + server.name() + "'", h -> {
            h.createUpdate("INSERT INTO mcp_servers (name, config_json) VALUES (?, ?) "
                            + "ON CONFLICT (name) DO UPDATE SET config_json = excluded.config_json")
                    .bind(0, server.name())
                    .bind(1, server.configJson())
                    .execute();
            db().changed(h, Area.SERVERS);
            return null;
        });
    }

    @Override
    default boolean deleteServer(String name) {
        Objects.requireNonNull(name, "name");
        return db().write(
                        "delete server '" + name + "'",
                        h -> db().changedIf(
                                                h,
                                                SqlDialect.update(h, "DELETE FROM mcp_servers WHERE name = ?", name),
                                                Area.SERVERS)
                                > 0);
    }

    @Override
    default List<String> loadDisabledServers() {
        List<String> names = db().query(
                        "load the disabled servers",
                        h -> h.createQuery("SELECT name FROM mcp_servers_disabled")
                                .mapTo(String.class)
                                .list());
        List<String> out = new ArrayList<>(names);
        out.sort(Comparator.naturalOrder());
        return List.copyOf(out);
    }

    @Override
    default boolean setServerDisabled(String name, boolean disabled) {
        Objects.requireNonNull(name, "name");
        return db().write((disabled ? "disable" : "enable") + " server '" + name + "'", h -> {
            Update u = disabled
                    ? h.createUpdate("INSERT INTO mcp_servers_disabled (name, disabled_at_millis) VALUES (?, ?) "
                                    + "ON CONFLICT (name) DO NOTHING")
                            .bind(0, name)
                            .bind(1, System.currentTimeMillis())
                    : h.createUpdate("DELETE FROM mcp_servers_disabled WHERE name = ?")
                            .bind(0, name);
            // the replicas connect or disconnect it too (ServerRegistry.reconcile)
            return db().changedIf(h, u.execute(), Area.SERVERS) > 0;
        });
    }
}

package dev.toolscout.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.toolscout.catalog.CatalogStore;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import dev.toolscout.store.PostgresStateStore.Area;
import dev.toolscout.store.SqlDialect.Parsed;
import dev.toolscout.store.SqlDialect.SpecRow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.PreparedBatch;

/**
 * The catalog's SQL ({@link CatalogStore}): the tools, their content hashes and the catalog version. Thread-safe as
 * the store it belongs to.
 */
interface CatalogSql extends CatalogStore {
    private SqlDialect db() {
        return (SqlDialect) this;
    }

    private static int parallelParseMin() {
        return 1_000;
    }

    @Override
    default StoredCatalog loadCatalog() {
        // Version and rows come from one read transaction, so they describe the same snapshot.
        record Rows(long version, List<SpecRow> specs) {}
        Rows rows = db().snapshot(
                        "load the catalog",
                        h -> new Rows(
                                catalogVersion(db(), h, false),
                                h.createQuery("SELECT name, spec_json, content_hash FROM tools ORDER BY name")
                                        .setFetchSize(2_000)
                                        .map(specRow())
                                        .list()));
        List<Parsed> parsed = parse(db(), rows.specs());
        return new StoredCatalog(
                rows.version(),
                parsed.stream().map(Parsed::spec).toList(),
                parsed.stream().map(Parsed::contentHash).toList());
    }

    @Override
    default long catalogVersion() {
        return db().query("read the catalog version", h -> catalogVersion(db(), h, false));
    }

    @Override
    default long applyCatalogChange(List<ToolSpec> upserts, Collection<String> removals) {
        Objects.requireNonNull(upserts, "upserts");
        Objects.requireNonNull(removals, "removals");
        Set<String> removed = new LinkedHashSet<>();
        for (String name : removals) {
            removed.add(Objects.requireNonNull(name, "removals must not hold null names"));
        }
        // Serialized before the transaction; a rejected change writes nothing.
        List<SpecRow> rows = new ArrayList<>(upserts.size());
        Set<String> seen = new HashSet<>();
        for (ToolSpec spec : upserts) {
            Objects.requireNonNull(spec, "upserts must not hold null specs");
            String name = spec.fullName();
            if (!seen.add(name)) {
                throw new IllegalArgumentException(
                        "a catalog change must upsert each tool at most once, got '" + name + "' twice");
            }
            if (removed.contains(name)) {
                throw new IllegalArgumentException(
                        "a catalog change must not both upsert and remove a tool, got both for '" + name + "'");
            }
            // toJson, not canonical(): the parameters' property order is meaningful and must survive a reload.
            rows.add(new SpecRow(name, ToolSpecJson.toJson(spec).toString(), spec.contentHash()));
        }
        // rows locked in one order by every writer: two changes to the same tools never deadlock
        rows.sort(Comparator.comparing(SpecRow::name));
        List<String> sortedRemovals = removed.stream().sorted().toList();
        return db().write("apply a catalog change", h -> {
            // the row lock on the version (where there are row locks) serializes catalog changes: each gets its own
            long next = catalogVersion(db(), h, true) + 1;
            if (!rows.isEmpty()) {
                PreparedBatch batch =
                        h.prepareBatch("INSERT INTO tools (name, spec_json, content_hash, updated_version) "
                                + "VALUES (?, ?, ?, ?) ON CONFLICT (name) DO UPDATE SET spec_json = excluded.spec_json, "
                                + "content_hash = excluded.content_hash, updated_version = excluded.updated_version");
                for (SpecRow r : rows) {
                    batch.bind(0, r.name())
                            .bind(1, r.json())
                            .bind(2, r.contentHash())
                            .bind(3, next)
                            .add();
                }
                batch.execute();
            }
            if (!sortedRemovals.isEmpty()) {
                PreparedBatch batch = h.prepareBatch("DELETE FROM tools WHERE name = ?");
                sortedRemovals.forEach(name -> batch.bind(0, name).add());
                batch.execute();
                db().removedTools(h, sortedRemovals, next);
            }
            SqlDialect.setMeta(h, SqlDialect.CATALOG_VERSION_KEY, Long.toString(next));
            db().changed(h, Area.CATALOG);
            return next;
        });
    }

    /** The names of the tools written after {@code version}, read from their column (not the whole catalog). */
    @Override
    default Set<String> toolsChangedSince(long version) {
        return db().snapshot(
                        "read the tools changed since catalog version " + version,
                        h -> new HashSet<>(h.createQuery("SELECT name FROM tools WHERE updated_version > ?")
                                .bind(0, version)
                                .mapTo(String.class)
                                .list()));
    }

    /** The tools upserted after {@code version}, as stored now, parsed and in name order. */
    static List<Parsed> toolsSince(SqlDialect db, Handle h, long version) {
        return parse(
                db,
                h.createQuery("SELECT name, spec_json, content_hash FROM tools WHERE updated_version > ?")
                        .bind(0, version)
                        .map(specRow())
                        .list());
    }

    /** The catalog version, read in {@code h}'s transaction (row-locked for a change when {@code forUpdate}). */
    static long catalogVersion(SqlDialect db, Handle h, boolean forUpdate) {
        String v = db.meta(h, SqlDialect.CATALOG_VERSION_KEY, forUpdate);
        try {
            return Long.parseLong(v);
        } catch (NumberFormatException e) { // also thrown for a missing row (null)
            throw new IllegalStateException(
                    "state store " + db.where() + ": meta." + SqlDialect.CATALOG_VERSION_KEY
                            + " must be a number, got: " + v,
                    e);
        }
    }

    /**
     * Parses the rows on several threads when there are many (most of a cold start's cost), and returns them in name
     * order. Errors are collected, not thrown from the workers: a fork-join pool rethrows a copy that wraps the
     * original message, and the first bad row in the rows' order should be the one reported, every time.
     */
    static List<Parsed> parse(SqlDialect db, List<SpecRow> rows) {
        var stream = rows.stream();
        if (rows.size() >= parallelParseMin()) {
            stream = stream.parallel();
        }
        List<Parsed> parsed = stream.map(r -> parseSpec(db, r.name(), r.json(), r.contentHash()))
                .toList();
        // name order as Java compares strings, whatever collation the database sorted by
        Map<String, Parsed> ordered = new TreeMap<>();
        for (Parsed p : parsed) {
            if (p.error() != null) {
                throw p.error();
            }
            ordered.put(p.spec().fullName(), p);
        }
        return new ArrayList<>(ordered.values());
    }

    private static Parsed parseSpec(SqlDialect db, String name, String json, String contentHash) {
        ToolSpec spec;
        try {
            spec = ToolSpecJson.fromJson(ToolSpecJson.MAPPER.readTree(json), null);
        } catch (JsonProcessingException e) {
            return new Parsed(null, null, corruptTool(db, name, "is not valid JSON: " + e.getOriginalMessage(), e));
        } catch (IllegalArgumentException e) {
            return new Parsed(null, null, corruptTool(db, name, "is not a valid tool: " + e.getMessage(), e));
        }
        if (!spec.fullName().equals(name)) {
            return new Parsed(
                    null, null, corruptTool(db, name, "holds a different tool: '" + spec.fullName() + "'", null));
        }
        // a row written by an older hashing recipe (or by hand) is hashed afresh rather than trusted blindly
        return new Parsed(spec, contentHash == null || contentHash.isEmpty() ? spec.contentHash() : contentHash, null);
    }

    private static IllegalStateException corruptTool(SqlDialect db, String name, String problem, Exception cause) {
        return new IllegalStateException(
                "state store " + db.where() + ": the stored spec_json of tool '" + name + "' " + problem
                        + " (restore the store from a backup, or remove the tool and register it again)",
                cause);
    }

    private static RowMapper<SpecRow> specRow() {
        return (rs, ctx) -> new SpecRow(rs.getString(1), rs.getString(2), rs.getString(3));
    }
}

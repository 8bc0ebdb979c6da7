package dev.toolscout.events;

import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.catalog.CatalogEvent;
import dev.toolscout.catalog.StateStore;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.index.ToolDocument;
import dev.toolscout.index.ToolIndex;
import dev.toolscout.index.ToolText;
import dev.toolscout.model.Hashing;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the search index current with the catalog: subscribes to catalog events, builds each tool's text,
 * embeds what has no stored vector yet (in batches, keyed by text hash and model id, so an unchanged tool is
 * never embedded twice), stores the new vectors, and writes the index. Also rebuilds the index from the
 * store at start when it is behind.
 *
 * <p>Thread-safety: event handling runs on the catalog's (serialized) writer thread; {@link
 * #rebuildIfStale} must not run concurrently with catalog writes.
 */
public final class ToolIndexer {
  private static final Logger LOG = LoggerFactory.getLogger(ToolIndexer.class);
  /** Texts per embedding call: large enough to amortize the ONNX call, small enough for progress. */
  public static final int BATCH = 64;

  private final StateStore store;
  private final ToolIndex index;
  private final EmbeddingModel model;
  private final AtomicLong embedded = new AtomicLong();
  private volatile IntConsumer progress = n -> {};

  public ToolIndexer(StateStore store, ToolIndex index, EmbeddingModel model) {
    this.store = store;
    this.index = index;
    this.model = model;
  }

  /** Subscribes this indexer to {@code bus}. */
  public ToolIndexer attach(EventBus bus) {
    bus.subscribe(this::onEvents);
    return this;
  }

  /** Called with the number of tools embedded so far during long runs (a progress bar); may be a no-op. */
  public void onProgress(IntConsumer listener) {
    this.progress = listener == null ? n -> {} : listener;
  }

  /** How many texts this indexer has sent to the embedding model since it was made. */
  public long embeddedCount() {
    return embedded.get();
  }

  void onEvents(List<CatalogEvent> batch) {
    List<CatalogEntry> upserts = new ArrayList<>();
    List<String> removals = new ArrayList<>();
    long version = -1;
    for (CatalogEvent e : batch) {
      version = Math.max(version, e.version());
      switch (e) {
        case CatalogEvent.InterfaceRegistered r -> upserts.addAll(r.tools());
        case CatalogEvent.ActionAdded a -> upserts.add(a.tool());
        case CatalogEvent.ActionUpdated u -> upserts.add(u.after());
        case CatalogEvent.ActionRemoved r -> removals.add(r.tool().name());
        case CatalogEvent.InterfaceUnregistered u -> u.tools().forEach(t -> removals.add(t.name()));
      }
    }
    if (!removals.isEmpty()) {
      index.remove(removals);
    }
    if (!upserts.isEmpty()) {
      index.upsert(documents(upserts));
    }
    index.commit(version);
  }

  /**
   * Rebuilds the index from the store when its committed version differs from the catalog's. Uses stored
   * vectors; embeds only tools that have none for this model.
   *
   * @return true when a rebuild ran
   */
  public boolean rebuildIfStale(Catalog.Snapshot snapshot) {
    if (index.committedVersion() == snapshot.version() && index.size() == snapshot.size()) {
      return false;
    }
    LOG.info(
        "rebuilding the search index: it is at catalog version {} with {} tools, the store at {} with {}",
        index.committedVersion(), index.size(), snapshot.version(), snapshot.size());
    index.clear();
    List<CatalogEntry> all = snapshot.entries();
    for (int from = 0; from < all.size(); from += 4096) {
      index.upsert(documents(all.subList(from, Math.min(all.size(), from + 4096))));
    }
    index.commit(snapshot.version());
    return true;
  }

  /** The documents of {@code entries}, embedding the texts that have no stored vector for this model. */
  private List<ToolDocument> documents(Collection<CatalogEntry> entries) {
    Map<String, String> textByHash = new LinkedHashMap<>();
    Map<CatalogEntry, String> hashOf = new HashMap<>();
    for (CatalogEntry e : entries) {
      String text = ToolText.embeddingText(e.spec());
      String hash = Hashing.sha256Hex(text);
      textByHash.putIfAbsent(hash, text);
      hashOf.put(e, hash);
    }
    Map<String, float[]> vectors = new HashMap<>(store.loadVectors(model.modelId(), textByHash.keySet()));
    List<String> missing = new ArrayList<>();
    for (String h : textByHash.keySet()) {
      if (!vectors.containsKey(h)) {
        missing.add(h);
      }
    }
    // a batch at a time, each stored before the next is embedded (an interrupted run keeps what it embedded); the
    // store embeds only what it holds no vector for by then (shared by replicas: what no other one is embedding)
    int[] done = {0};
    for (int from = 0; from < missing.size(); from += BATCH) {
      Map<String, String> batch = new LinkedHashMap<>();
      for (String h : missing.subList(from, Math.min(missing.size(), from + BATCH))) {
        batch.put(h, textByHash.get(h));
      }
      vectors.putAll(store.vectors(model.modelId(), batch, texts -> {
        List<float[]> out = model.embedDocuments(texts);
        embedded.addAndGet(texts.size());
        done[0] += texts.size();
        progress.accept(done[0]);
        return out;
      }));
    }
    List<ToolDocument> docs = new ArrayList<>(entries.size());
    for (CatalogEntry e : entries) {
      docs.add(ToolDocument.of(e.ord(), e.spec(), vectors.get(hashOf.get(e))));
    }
    return docs;
  }
}

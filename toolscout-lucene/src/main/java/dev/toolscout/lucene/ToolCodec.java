package dev.toolscout.lucene;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.lucene103.Lucene103Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * Lucene's default codec, with the HNSW vector format allowed to index up to {@link #MAX_DIMENSIONS}
 * dimensions instead of Lucene's default 1024, so remote embedding models (1536 or 3072 dimensions) fit.
 *
 * <p>The on-disk format is exactly {@link Lucene99HnswVectorsFormat}: the wrapper registers under that
 * format's SPI name, so segments it writes are read back by Lucene's own format (the dimension limit is
 * only checked when indexing). An index written here opens with a stock Lucene 10.3.
 */
final class ToolCodec extends Lucene103Codec {
    /** The largest vector dimension the index accepts (OpenAI's text-embedding-3-large has 3072). */
    static final int MAX_DIMENSIONS = 4096;

    private final KnnVectorsFormat vectors;

    ToolCodec(int maxConn, int beamWidth) {
        this.vectors = new WideHnswFormat(new Lucene99HnswVectorsFormat(maxConn, beamWidth));
    }

    @Override
    public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return vectors;
    }

    private static final class WideHnswFormat extends KnnVectorsFormat {
        private final Lucene99HnswVectorsFormat delegate;

        WideHnswFormat(Lucene99HnswVectorsFormat delegate) {
            super(delegate.getName()); // "Lucene99HnswVectorsFormat": readers resolve it to Lucene's format
            this.delegate = delegate;
        }

        @Override
        public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
            return delegate.fieldsWriter(state);
        }

        @Override
        public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
            return delegate.fieldsReader(state);
        }

        @Override
        public int getMaxDimensions(String fieldName) {
            return MAX_DIMENSIONS;
        }

        @Override
        public String toString() {
            return "WideHnswFormat(" + delegate + ")";
        }
    }
}

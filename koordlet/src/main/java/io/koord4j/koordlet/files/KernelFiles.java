package io.koord4j.koordlet.files;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Function;

/**
 * Reads small kernel files (proc, cgroup) that are sampled every second. Each stays open and is
 * read again from offset 0, which makes the kernel produce its content afresh: one system call per
 * read instead of a path walk, open, stat and close. The content lands in one reused buffer and is
 * handed out as an ASCII view, so a sample allocates nothing. Once a cgroup is removed its open
 * file fails to read and is dropped. Thread-safe: the content is parsed before the next read.
 */
public final class KernelFiles implements AutoCloseable {
  private final Map<Path, FileChannel> open = new HashMap<>();
  private ByteBuffer buffer = ByteBuffer.allocateDirect(16 * 1024);
  private final AsciiView view = new AsciiView();

  /**
   * The file's whole content, parsed; the parser must not keep the text it is given.
   *
   * @throws UncheckedIOException with a {@link NoSuchFileException} cause when the file does not exist
   */
  public synchronized <T> T read(Path file, Function<CharSequence, T> parser) {
    try {
      return parser.apply(readOpen(channel(file)));
    } catch (IOException e) {
      forget(file);
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** Closes the files under a directory that is gone or no longer sampled. */
  public synchronized void forgetUnder(Path dir) {
    for (Iterator<Map.Entry<Path, FileChannel>> it = open.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<Path, FileChannel> entry = it.next();
      if (entry.getKey().startsWith(dir)) {
        closeQuietly(entry.getValue());
        it.remove();
      }
    }
  }

  /** How many files are held open. */
  public synchronized int openCount() {
    return open.size();
  }

  @Override
  public synchronized void close() {
    open.values().forEach(KernelFiles::closeQuietly);
    open.clear();
  }

  private FileChannel channel(Path file) throws IOException {
    FileChannel channel = open.get(file);
    if (channel == null) {
      channel = FileChannel.open(file, StandardOpenOption.READ);
      open.put(file, channel);
    }
    return channel;
  }

  /**
   * One read from offset 0 fills the buffer with what the kernel generates; a full buffer means the
   * content may be longer, so the buffer doubles and the read is repeated.
   */
  private CharSequence readOpen(FileChannel channel) throws IOException {
    while (true) {
      buffer.clear();
      int read = channel.read(buffer, 0);
      if (read < buffer.capacity()) {
        buffer.flip();
        return view.of(buffer);
      }
      buffer = ByteBuffer.allocateDirect(buffer.capacity() * 2);
    }
  }

  private void forget(Path file) {
    FileChannel channel = open.remove(file);
    if (channel != null) {
      closeQuietly(channel);
    }
  }

  private static void closeQuietly(FileChannel channel) {
    try {
      channel.close();
    } catch (IOException ignored) {
      // a read-only handle: nothing is lost
    }
  }

  /** The buffer's bytes as characters; kernel interface files are ASCII. */
  private static final class AsciiView implements CharSequence {
    private ByteBuffer bytes;

    CharSequence of(ByteBuffer filled) {
      this.bytes = filled;
      return this;
    }

    @Override
    public int length() {
      return bytes.limit();
    }

    @Override
    public char charAt(int index) {
      return (char) (bytes.get(index) & 0xff);
    }

    @Override
    public CharSequence subSequence(int start, int end) {
      return toString().substring(start, end);
    }

    @Override
    public String toString() {
      byte[] copy = new byte[bytes.limit()];
      bytes.get(0, copy);
      return new String(copy, java.nio.charset.StandardCharsets.US_ASCII);
    }
  }
}

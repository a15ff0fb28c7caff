package io.koord4j.visibility;

import java.util.ArrayList;
import java.util.List;

/** Columns padded to their widest cell, as kubectl prints them. */
final class TextTable {
  private final List<String[]> rows = new ArrayList<>();
  private final int columns;

  TextTable(String... headers) {
    this.columns = headers.length;
    rows.add(headers);
  }

  TextTable row(Object... cells) {
    if (cells.length != columns) {
      throw new IllegalArgumentException(columns + " cells expected, got " + cells.length);
    }
    String[] text = new String[columns];
    for (int i = 0; i < columns; i++) {
      text[i] = cells[i] == null ? "" : cells[i].toString();
    }
    rows.add(text);
    return this;
  }

  String render() {
    int[] widths = new int[columns];
    rows.forEach(row -> {
      for (int i = 0; i < columns; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    });
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < columns; i++) {
        line.append(i == columns - 1 ? row[i] : pad(row[i], widths[i] + 3));
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
    return out.toString();
  }

  private static String pad(String text, int width) {
    return text + " ".repeat(width - text.length());
  }
}

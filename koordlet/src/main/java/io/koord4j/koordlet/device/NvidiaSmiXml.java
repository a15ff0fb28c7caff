package io.koord4j.koordlet.device;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/** Reads the GPUs of an {@code nvidia-smi -q -x} report; no I/O. */
public final class NvidiaSmiXml {
  private NvidiaSmiXml() {}

  /** A GPU's own fields; topology comes from {@link NvidiaTopology}. */
  public record Gpu(int minor, String uuid, String productName, long memoryBytes, String busId) {}

  public static List<Gpu> parse(String xml) {
    Document document = document(xml);
    if (!document.getDocumentElement().getTagName().equals("nvidia_smi_log")) {
      throw new IllegalArgumentException("nvidia-smi -q -x: the root element must be <nvidia_smi_log>");
    }
    List<Gpu> gpus = new ArrayList<>();
    NodeList nodes = document.getDocumentElement().getElementsByTagName("gpu");
    for (int i = 0; i < nodes.getLength(); i++) {
      Element gpu = (Element) nodes.item(i);
      String where = "nvidia-smi -q -x: <gpu id=\"" + gpu.getAttribute("id") + "\">";
      gpus.add(new Gpu(
          integer(where, "minor_number", text(where, gpu, "minor_number")),
          text(where, gpu, "uuid"),
          text(where, gpu, "product_name"),
          mebibytes(where, text(where, child(where, gpu, "fb_memory_usage"), "total")),
          text(where, child(where, gpu, "pci"), "pci_bus_id")));
    }
    return gpus;
  }

  private static Document document(String xml) {
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      // The report names an external DTD; never fetch it.
      factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setExpandEntityReferences(false);
      DocumentBuilder builder = factory.newDocumentBuilder();
      return builder.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    } catch (Exception e) {
      throw new IllegalArgumentException("nvidia-smi -q -x: not well-formed XML: " + e.getMessage(), e);
    }
  }

  private static Element child(String where, Element parent, String name) {
    for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
      if (node instanceof Element element && element.getTagName().equals(name)) {
        return element;
      }
    }
    throw new IllegalArgumentException(where + " has no <" + name + ">");
  }

  private static String text(String where, Element parent, String name) {
    return child(where, parent, name).getTextContent().trim();
  }

  private static int integer(String where, String field, String value) {
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(where + " <" + field + "> must be an integer, not \"" + value + "\"", e);
    }
  }

  /** "81559 MiB" in bytes. */
  private static long mebibytes(String where, String value) {
    String[] parts = value.split("\\s+");
    if (parts.length != 2 || !parts[1].equals("MiB")) {
      throw new IllegalArgumentException(where + " <fb_memory_usage><total> must read \"<n> MiB\", not \"" + value + "\"");
    }
    return Long.parseLong(parts[0]) << 20;
  }
}

package io.koord4j.manager.support;

import io.fabric8.kubernetes.client.CustomResource;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Shrinks an object an informer keeps, in place, without changing what it says: its Strings are
 * replaced by the JVM's one shared copy of each, its empty lists and maps by shared immutable ones,
 * and its other lists and maps are trimmed to their size. An object deserialized from the API
 * server holds a String of its own for every namespace, kind, image and condition type it repeats,
 * and an empty map of additional properties and several empty lists in every nested part: for a
 * waiting QueueUnit that is more than half of its heap. Informers' objects are read, never changed
 * (changes go through copies and builders), so shared values are safe to hand out.
 */
final class CompactObjects {
  /**
   * The classes whose objects are walked, by name prefix: the API's model, this project's and the
   * base class of custom resources, which declares their metadata, spec and status.
   */
  private static final List<String> MODEL_CLASSES =
      List.of("io.fabric8.kubernetes.api.model.", "io.koord4j.api.", CustomResource.class.getName());

  /** That of {@link java.util.HashMap}: a table this full grows. */
  private static final double DEFAULT_LOAD_FACTOR = 0.75;

  private static final ClassValue<List<Field>> FIELDS =
      new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
          return referenceFields(type);
        }
      };

  private CompactObjects() {}

  /** Compacts the object and everything it holds. */
  static void compact(Object object) {
    compacted(object);
  }

  /** The value to keep in place of {@code value}: itself, compacted, or a shared equal value. */
  private static Object compacted(Object value) {
    if (value instanceof String text) {
      return text.intern();
    }
    if (value instanceof List<?> list) {
      return list.isEmpty() ? List.of() : compactElements(list);
    }
    if (value instanceof Map<?, ?> map) {
      return map.isEmpty() ? Map.of() : compactValues(map);
    }
    if (value != null) {
      FIELDS.get(value.getClass()).forEach(field -> compactField(value, field));
    }
    return value;
  }

  @SuppressWarnings("unchecked")
  private static List<?> compactElements(List<?> list) {
    if (list instanceof ArrayList<?> elements) {
      ((ArrayList<Object>) elements).replaceAll(CompactObjects::compacted);
      elements.trimToSize();
    }
    return list;
  }

  /**
   * A map's values compacted; a map as read from JSON comes back in a table sized to its entries
   * (a LinkedHashMap starts with 16 slots however few it holds), in the same order. A map of one
   * entry, such as most labels and resource requests, becomes a singleton map: a third of the size.
   */
  @SuppressWarnings("unchecked")
  private static Map<?, ?> compactValues(Map<?, ?> map) {
    if (!(map instanceof LinkedHashMap<?, ?>)) {
      return map;
    }
    if (map.size() == 1) {
      Map.Entry<?, ?> only = map.entrySet().iterator().next();
      return Collections.singletonMap(only.getKey(), compacted(only.getValue()));
    }
    Map<Object, Object> sized = new LinkedHashMap<>((int) Math.ceil(map.size() / DEFAULT_LOAD_FACTOR));
    ((Map<Object, Object>) map).forEach((key, value) -> sized.put(key, compacted(value)));
    return sized;
  }

  private static void compactField(Object owner, Field field) {
    try {
      Object value = field.get(owner);
      Object replacement = compacted(value);
      if (replacement != value && !Modifier.isFinal(field.getModifiers())) {
        field.set(owner, replacement);
      }
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot compact " + field, e);
    }
  }

  private static boolean isModel(Class<?> type) {
    String name = type.getName();
    return !type.isEnum() && MODEL_CLASSES.stream().anyMatch(name::startsWith);
  }

  /**
   * The fields of a model class and its model superclasses that hold objects, made accessible;
   * none for other classes. Found once per class: every value stored passes here.
   */
  private static List<Field> referenceFields(Class<?> type) {
    List<Field> fields = new ArrayList<>();
    for (Class<?> declaring = type; isModel(declaring); declaring = declaring.getSuperclass()) {
      for (Field field : declaring.getDeclaredFields()) {
        if (!Modifier.isStatic(field.getModifiers()) && !field.getType().isPrimitive()) {
          field.setAccessible(true);
          fields.add(field);
        }
      }
    }
    return List.copyOf(fields);
  }
}

package io.koord4j.manager.support;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.CustomResource;
import java.lang.ref.WeakReference;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * Shrinks an object an informer keeps, in place, without changing what it says: its Strings are
 * replaced by the JVM's one shared copy of each, its empty lists and maps by shared immutable ones,
 * its other lists and maps are trimmed to their size, and a pod template's spec is replaced by one
 * kept copy of it shared by every equal one. An object deserialized from the API
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

  /**
   * Fields whose value is nearly always an object's own: interning it shares nothing and costs an
   * entry in the JVM's String table (some 40 bytes of native memory), three per QueueUnit. Not the
   * name: a unit's consumer reference and its Queue's list of waiting units repeat it.
   */
  private static final Set<Field> OWN_VALUES =
      Set.of(
          field(ObjectMeta.class, "uid"),
          field(ObjectMeta.class, "resourceVersion"),
          field(ObjectMeta.class, "creationTimestamp"),
          field(OwnerReference.class, "name"),
          field(OwnerReference.class, "uid"));

  /**
   * One kept copy of each distinct pod template's spec, weakly held: the jobs of one workload, and
   * their QueueUnits, repeat the same spec, which with its containers is the largest part of a
   * waiting unit (some 600 bytes). Guarded by itself: each informer stores from its own thread.
   */
  private static final Map<PodSpec, WeakReference<PodSpec>> TEMPLATE_SPECS = new WeakHashMap<>();

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
    if (value instanceof PodTemplateSpec template && template.getSpec() != null) {
      template.setSpec(shared(template.getSpec()));
    }
    return value;
  }

  /** The kept spec equal to this compacted one, which is kept if there is none. */
  private static PodSpec shared(PodSpec spec) {
    synchronized (TEMPLATE_SPECS) {
      WeakReference<PodSpec> kept = TEMPLATE_SPECS.get(spec);
      PodSpec same = kept == null ? null : kept.get();
      if (same != null) {
        return same;
      }
      TEMPLATE_SPECS.put(spec, new WeakReference<>(spec));
      return spec;
    }
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
   * A map's keys and values compacted; a map as read from JSON comes back in a table sized to its
   * entries (a LinkedHashMap starts with 16 slots however few it holds), in the same order. A map of
   * one entry, such as most labels and resource requests, becomes a singleton map: a third of the
   * size. Keys are shared too: the clients read JSON names without Jackson's table of names (see
   * {@link io.koord4j.api.ClientSerialization}), so every label, annotation and resource name
   * arrives as a String of its own.
   */
  @SuppressWarnings("unchecked")
  private static Map<?, ?> compactValues(Map<?, ?> map) {
    if (!(map instanceof LinkedHashMap<?, ?>)) {
      return map;
    }
    if (map.size() == 1) {
      Map.Entry<?, ?> only = map.entrySet().iterator().next();
      return Collections.singletonMap(compacted(only.getKey()), compacted(only.getValue()));
    }
    Map<Object, Object> sized = new LinkedHashMap<>((int) Math.ceil(map.size() / DEFAULT_LOAD_FACTOR));
    ((Map<Object, Object>) map).forEach((key, value) -> sized.put(compacted(key), compacted(value)));
    return sized;
  }

  private static void compactField(Object owner, Field field) {
    try {
      Object value = field.get(owner);
      if (value instanceof String && OWN_VALUES.contains(field)) {
        return;
      }
      Object replacement = compacted(value);
      if (replacement != value && isReplaceable(field)) {
        field.set(owner, replacement);
      }
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot compact " + field, e);
    }
  }

  /**
   * Final fields too, but a record's: the custom resource base class computes its API version, CRD
   * name and singular name into final fields of each object, three Strings of its own per object.
   */
  private static boolean isReplaceable(Field field) {
    return !Modifier.isFinal(field.getModifiers()) || !field.getDeclaringClass().isRecord();
  }

  private static Field field(Class<?> type, String name) {
    try {
      return type.getDeclaredField(name);
    } catch (NoSuchFieldException e) {
      throw new IllegalStateException(type.getName() + " has no field " + name, e);
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

package io.koord4j.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A seeded trace of GPU work: single pods of 1/2/4/8 GPUs and gangs of 2-4 pods. */
final class GpuTrace {
  private GpuTrace() {}

  private static final int[] GANG_POD_GPUS = {2, 4, 8};

  /** One submission: {@code pods} pods of {@code gpusPerPod} GPUs, a gang when more than one. */
  record Item(String name, int pods, int gpusPerPod) {
    int gpus() {
      return pods * gpusPerPod;
    }

    boolean isGang() {
      return pods > 1;
    }
  }

  /**
   * Items until {@code totalGpus} GPUs are requested: 35 % single 1-GPU pods, 25 % 2-GPU, 15 %
   * 4-GPU, 10 % 8-GPU, 15 % gangs.
   */
  static List<Item> generate(long seed, int totalGpus) {
    Random random = new Random(seed);
    List<Item> items = new ArrayList<>();
    for (int requested = 0; requested < totalGpus; ) {
      int roll = random.nextInt(100);
      String name = "item-" + items.size();
      Item item =
          roll < 35 ? new Item(name, 1, 1)
              : roll < 60 ? new Item(name, 1, 2)
              : roll < 75 ? new Item(name, 1, 4)
              : roll < 85 ? new Item(name, 1, 8)
              : new Item(name, 2 + random.nextInt(3), GANG_POD_GPUS[random.nextInt(GANG_POD_GPUS.length)]);
      items.add(item);
      requested += item.gpus();
    }
    return items;
  }
}

package io.koord4j.scheduler.plugins.deviceshare;

import io.koord4j.scheduler.KoordScheduler;
import io.koord4j.scheduler.SchedulerTestBed;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/** koord-scheduler in this process, with DeviceShare in its default profile, places the GPU pods. */
class DeviceShareIT extends GpuPlacementContract {

  @Override
  protected String startScheduler(SchedulerTestBed bed) {
    String name = KoordScheduler.DEFAULT_NAME + "-" + bed.run();
    bed.startScheduler(name, new SimpleMeterRegistry());
    return name;
  }
}

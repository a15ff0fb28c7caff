# The image of one koord4j component: a Java 17 runtime (BASE) and the component's
# jar-with-dependencies (JAR), built with the module's target/ folder as context, e.g.
#   docker build --build-arg JAR=koord4j-manager-0.1.0-SNAPSHOT-jar-with-dependencies.jar \
#     -t koord4j/manager:0.1.0-SNAPSHOT queue-controller/target
# The local cluster builds the same file with buildah on a base made from Debian packages
# (hack/local-cluster/cluster.sh images load).
ARG BASE=eclipse-temurin:17-jre
FROM ${BASE}
ARG JAR
COPY ${JAR} /app/app.jar
USER 65532:65532
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/app.jar"]

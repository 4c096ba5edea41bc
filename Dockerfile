# The node image: the shaded jar on a Temurin 17 JRE. Build the jar first:
#   mvn -B package -DskipTests && docker build -t registry.example.com/boxoffice:0.1.0 .
FROM eclipse-temurin:17-jre

# A fixed non-root user; k8s/*.yaml run the pods as uid/gid 10001.
RUN groupadd --system --gid 10001 boxoffice \
 && useradd --system --uid 10001 --gid 10001 --home-dir /opt/boxoffice --no-create-home boxoffice

WORKDIR /opt/boxoffice
COPY --chown=root:root server/target/boxoffice.jar /opt/boxoffice/boxoffice.jar

# Defaults for a plain `docker run`; on Kubernetes the ConfigMap's JAVA_TOOL_OPTIONS wins.
ENV JAVA_TOOL_OPTIONS="-XX:+UseParallelGC -XX:MaxRAMPercentage=70 -XX:+ExitOnOutOfMemoryError"

USER 10001:10001
# HTTP, Pekko remoting, Pekko Management.
EXPOSE 8080 25520 8558

# exec form: java is PID 1 and gets SIGTERM itself (coordinated shutdown leaves the cluster).
ENTRYPOINT ["java", "-jar", "/opt/boxoffice/boxoffice.jar"]

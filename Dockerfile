# warc2corpus Airflow image.
#
# Extends the official Apache Airflow image as described in
# https://airflow.apache.org/docs/docker-stack/build.html ("Extending the image"):
# extra Python packages are installed with pip as the `airflow` user (never as root),
# pinned by the project's lock file so the image matches the tested environment.
#
# DAGs, plugins, the project library (include/) and config/ are NOT baked in:
# docker-compose.yaml bind-mounts them, so edits are picked up without a rebuild.
FROM apache/airflow:3.3.2-python3.11

# The base image already runs as `airflow`; say so explicitly so pip never runs as root.
USER airflow

COPY --chown=airflow:0 requirements.txt constraints.txt /opt/airflow/build/

# Keeping apache-airflow pinned to the image's own version (AIRFLOW_VERSION is set by
# the base image) prevents a requirement from silently up/downgrading Airflow.
RUN pip install --no-cache-dir \
        "apache-airflow==${AIRFLOW_VERSION}" \
        -r /opt/airflow/build/requirements.txt \
        -c /opt/airflow/build/constraints.txt

# Mount point of the `staging` named volume. Creating it in the image (owned by
# airflow, group 0, group-writable like the rest of AIRFLOW_HOME) makes Docker
# initialise the fresh named volume with these permissions instead of root:root.
RUN mkdir -p /opt/airflow/staging && chmod 2775 /opt/airflow/staging

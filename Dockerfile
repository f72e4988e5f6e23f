# SVM Lab in a container (docs/serving.md):
#   docker build -t svmlab .
#   docker run --rm -p 8501:8501 -v svmlab-var:/app/var svmlab   # then open http://localhost:8501
# Several behind HAProxy with cookie stickiness: deploy/compose.yaml.
FROM python:3.11-slim

# NUMBA_CACHE_DIR: numba's cache of compiled solvers, filled below, at build, by the user
# that serves; it stays writable for that user (numba skips a cache folder it cannot write to).
ENV PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    NUMBA_CACHE_DIR=/home/svmlab/numba-cache

# The app runs as this user; the code below stays root's, read-only to it.
RUN groupadd --gid 10001 svmlab \
    && useradd --create-home --uid 10001 --gid 10001 --shell /usr/sbin/nologin svmlab

WORKDIR /app
# Wheels exist for every pin on linux x86_64 and aarch64: no compiler needed.
COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
# Bytecode and the click canvas's Plotly.js (static/, which the app serves) made now, as
# root, since the app's user cannot write into /app.
RUN python -m compileall -q app.py pages svm_engine ui \
    && python -c "from ui.serving.startup import ensure_plotly_js; ensure_plotly_js('static')"

# The store's SQLite file (ui/classroom/store) when SVMLAB_DATABASE_URL names no database: in
# a volume, so that classes, answers and short links outlive the container
# (docker run -v svmlab-var:/app/var ...); compose.yaml uses PostgreSQL instead.
RUN mkdir -p /app/var && chown 10001:10001 /app/var
VOLUME ["/app/var"]

# Numeric, so that a runtime (e.g. Kubernetes' runAsNonRoot) can tell it is not root.
USER 10001:10001
# Compile the solvers now, so that a container starts with them ready (~1 s to load instead
# of ~15 s to compile). numba keys its cache by CPU model: on a machine with another CPU the
# server's fit workers compile them once as it starts; a page waits behind a spinner.
RUN python -m svm_engine.precompile

EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import sys, urllib.request as u; sys.exit(u.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).status != 200)"]
CMD ["streamlit", "run", "app.py", "--server.address=0.0.0.0", "--server.port=8501", \
     "--server.headless=true", "--server.fileWatcherType=none", \
     "--browser.gatherUsageStats=false"]

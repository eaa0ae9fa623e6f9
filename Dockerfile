# routemax gRPC service. Build: docker build -t routemax .   Run: docker run -p 50051:50051 routemax
# Settings come from ROUTEMAX_* variables (e.g. -e ROUTEMAX_WORKERS=8); `docker stop` sends SIGTERM,
# which drains in-flight requests for up to ROUTEMAX_GRACE_S (give docker stop -t a little more).
# The HTTP side (JSON, gRPC-Web, the example page) is off unless set: -e ROUTEMAX_HTTP_PORT=8080 -p 8080:8080,
# and -e ROUTEMAX_CORS_ORIGINS=https://your-site.example for pages served elsewhere.

FROM python:3.11-slim AS build
WORKDIR /src
COPY . .
RUN python -m pip wheel --no-deps --no-cache-dir -w /dist .

FROM python:3.11-slim
COPY --from=build /dist/*.whl /tmp/
RUN python -m pip install --no-cache-dir /tmp/*.whl && rm /tmp/*.whl \
    && useradd --system --no-create-home routemax
USER routemax
ENV PYTHONUNBUFFERED=1
EXPOSE 50051 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s CMD python -c "import grpc, os; \
from grpc_health.v1 import health_pb2 as h, health_pb2_grpc as g; \
ch = grpc.insecure_channel('127.0.0.1:' + os.environ.get('ROUTEMAX_PORT', '50051')); \
ok = g.HealthStub(ch).Check(h.HealthCheckRequest(), timeout=3).status == h.HealthCheckResponse.SERVING; \
raise SystemExit(0 if ok else 1)"
CMD ["routemax", "serve", "--host", "0.0.0.0"]

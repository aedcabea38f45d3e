/**
 * The Python runtime inside a function's child process (`python3 -u -c <this>`): the same
 * line protocol as the Node.js bootstrap (see ../protocol.ts). Kept as source text because
 * the build compiles TypeScript only. Prints go to stdout, which the sandbox logs.
 */
export const PYTHON_BOOTSTRAP = String.raw`
import importlib, json, os, sys, threading, time, traceback

def watch_sandbox(parent):
    # The sandbox was killed (this process was handed to init) while a handler still runs.
    while os.getppid() == parent:
        time.sleep(1)
    os._exit(0)

threading.Thread(target=watch_sandbox, args=(os.getppid(),), daemon=True).start()

results = os.fdopen(3, "w", buffering=1)
root = os.environ.get("LAMBDA_TASK_ROOT", os.getcwd())
sys.path.insert(0, root)
for layer in reversed([p for p in os.environ.get("CDKD_LAYER_PATHS", "").split(":") if p]):
    sys.path.append(os.path.join(layer, "python"))
    sys.path.append(os.path.join(layer, "python", "lib", "python%d.%d" % sys.version_info[:2], "site-packages"))

class RuntimeError_(Exception):
    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind

class Context:
    def __init__(self, message, deadline):
        env = os.environ
        self.function_name = env.get("AWS_LAMBDA_FUNCTION_NAME")
        self.function_version = env.get("AWS_LAMBDA_FUNCTION_VERSION")
        self.invoked_function_arn = message["invokedFunctionArn"]
        self.memory_limit_in_mb = env.get("AWS_LAMBDA_FUNCTION_MEMORY_SIZE")
        self.aws_request_id = message["requestId"]
        self.log_group_name = env.get("AWS_LAMBDA_LOG_GROUP_NAME")
        self.log_stream_name = env.get("AWS_LAMBDA_LOG_STREAM_NAME")
        self.identity = None
        self.client_context = None
        self._deadline = deadline

    def get_remaining_time_in_millis(self):
        return max(0, int(self._deadline - time.time() * 1000))

handler = None

def load():
    spec = os.environ.get("_HANDLER", "")
    module_path, _, name = spec.rpartition(".")
    if not module_path or not name:
        raise RuntimeError_("Runtime.MalformedHandlerName", "Bad handler '%s': not enough values to unpack (expected 2, got 1)" % spec)
    try:
        module = importlib.import_module(module_path.replace("/", "."))
    except ImportError as error:
        raise RuntimeError_("Runtime.ImportModuleError", "Unable to import module '%s': %s" % (module_path, error))
    except SyntaxError as error:
        raise RuntimeError_("Runtime.UserCodeSyntaxError", "Syntax error in module '%s': %s" % (module_path, error))
    fn = getattr(module, name, None)
    if fn is None:
        raise RuntimeError_("Runtime.HandlerNotFound", "Handler '%s' missing on module '%s'" % (name, module_path))
    return fn

def send(message):
    results.write(json.dumps(message) + "\n")

# The logging module's records, as Lambda's runtime writes them: one log event each (an
# exception's traceback included), "[LEVEL]\t<UTC time>\t<request id>\t<message>".
import logging
request_id = None

class LambdaLogHandler(logging.Handler):
    def emit(self, record):
        try:
            send({"type": "log", "text": self.format(record)})
        except Exception:
            self.handleError(record)

class RequestIdFilter(logging.Filter):
    def filter(self, record):
        record.aws_request_id = request_id
        return True

log_handler = LambdaLogHandler()
log_format = logging.Formatter("[%(levelname)s]\t%(asctime)s.%(msecs)03dZ\t%(aws_request_id)s\t%(message)s", "%Y-%m-%dT%H:%M:%S")
log_format.converter = time.gmtime
log_handler.setFormatter(log_format)
log_handler.addFilter(RequestIdFilter())
logging.getLogger().addHandler(log_handler)

for line in sys.stdin:
    message = json.loads(line)
    request_id = message["requestId"]
    try:
        if handler is None:
            handler = load()
        deadline = time.time() * 1000 + message["timeoutMs"]
        send({"type": "started", "requestId": message["requestId"], "deadlineMs": deadline})
        result = handler(json.loads(message["payload"]), Context(message, deadline))
        send({"type": "result", "requestId": message["requestId"], "payload": json.dumps(result)})
    except Exception as error:
        kind = error.kind if isinstance(error, RuntimeError_) else type(error).__name__
        trace = [] if isinstance(error, RuntimeError_) else traceback.format_tb(error.__traceback__)
        payload = {"errorMessage": str(error), "errorType": kind, "requestId": message["requestId"], "stackTrace": trace}
        print("[ERROR] %s: %s" % (kind, error), flush=True)
        send({"type": "error", "requestId": message["requestId"], "error": payload})
    sys.stdout.flush()
    sys.stderr.flush()
`;

<?php

declare(strict_types=1);

// Runs clients/scenario.json with this library against a running service (see clients/README.md).
// The library from its sources, as composer's PSR-4 autoloader would load it.
spl_autoload_register(static function (string $class): void {
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen('ContactVerify\\'))) . '.php';
    if (str_starts_with($class, 'ContactVerify\\') && is_file($file)) {
        require $file;
    }
});

use ContactVerify\Channel;
use ContactVerify\Client;
use ContactVerify\DeliveryType;
use ContactVerify\Exception\ApiException;
use ContactVerify\SendLink;
use ContactVerify\TestHelper;

$scenario = json_decode((string) file_get_contents(getenv('CV_SCENARIO')), true, 512, JSON_THROW_ON_ERROR);
$vars = ['lang' => 'php', 'runId' => getenv('CV_RUN_ID')];
$expand = static function ($v) use (&$expand, &$vars) {
    if (is_string($v)) {
        return preg_replace_callback('/\{(\w+)\}/', static fn ($m) => $vars[$m[1]] ?? $m[0], $v);
    }
    return is_array($v) ? array_map($expand, $v) : $v;
};
foreach ($scenario['vars'] as $k => $v) {
    $vars[$k] = $expand($v);
}
$base = getenv('CV_BASE_URL');
$clients = [
    'default' => new Client($base, getenv('CV_API_KEY')),
    'badKey' => new Client($base, 'cv_live_not_a_real_key_000000000000'),
    'stub' => new Client(getenv('CV_STUB_URL'), getenv('CV_API_KEY')),
    'test' => getenv('CV_TEST_API_KEY') !== false ? new Client($base, getenv('CV_TEST_API_KEY')) : null,
];
$outbox = new TestHelper($base, getenv('CV_ADMIN_TOKEN'));

$mismatch = static function ($expected, $actual, string $at) use (&$mismatch): ?string {
    if (is_array($expected) && array_is_list($expected)) {
        if (!is_array($actual) || !array_is_list($actual) || count($actual) !== count($expected)) {
            return "{$at}: expected a list of " . count($expected) . ', got ' . json_encode($actual);
        }
        foreach ($expected as $i => $e) {
            if ($m = $mismatch($e, $actual[$i], "{$at}[{$i}]")) {
                return $m;
            }
        }
        return null;
    }
    if (is_array($expected)) {
        if (!is_array($actual)) {
            return "{$at}: expected an object, got " . json_encode($actual);
        }
        foreach ($expected as $k => $e) {
            if ($m = $mismatch($e, $actual[$k] ?? null, "{$at}.{$k}")) {
                return $m;
            }
        }
        return null;
    }
    return $expected === $actual ? null : "{$at}: expected " . json_encode($expected) . ', got ' . json_encode($actual);
};
$pick = static function ($data, string $path) {
    foreach (array_filter(explode('.', preg_replace('/\[(\d+)\]/', '.$1', $path)), 'strlen') as $key) {
        $data = $data[$key] ?? null;
    }
    return $data;
};
// Not a library call: the outbox's newest text, matched against the scenario's pattern.
$outboxCode = static function (string $to) use ($base, $scenario): array {
    $context = stream_context_create(['http' => ['header' => 'Authorization: Bearer ' . getenv('CV_ADMIN_TOKEN')]]);
    $items = json_decode((string) file_get_contents("{$base}/v1/admin/outbox?to=" . rawurlencode($to), false, $context), true)['data'];
    if (!preg_match('/' . $scenario['codePattern'] . '/', $items[0]['text'] ?? '', $m)) {
        throw new RuntimeException("no code in the outbox for {$to}");
    }
    return ['code' => $m[1]];
};

$sendCode = static function (Client $client, array $args, ?int $retries) {
    $options = [
        'email' => $args['email'] ?? null,
        'phone' => $args['phone'] ?? null,
        'country' => $args['country'] ?? null,
        'deliveryType' => isset($args['deliveryType']) ? DeliveryType::from($args['deliveryType']) : null,
        'purpose' => $args['purpose'] ?? null,
        'customMessage' => $args['customMessage'] ?? null,
        'locale' => $args['locale'] ?? null,
        'link' => isset($args['link']) ? new SendLink($args['link']['redirectUrl'] ?? null) : null,
        'idempotencyKey' => $args['idempotencyKey'] ?? null,
        'maxRetries' => $retries,
    ];
    return isset($args['channels'])
        ? $client->sendDualCode(array_map(Channel::from(...), $args['channels']), ...$options)
        : $client->sendCode(
            Channel::from($args['channel']),
            ...$options,
            fallback: isset($args['fallback']) ? Channel::from($args['fallback']) : null,
        );
};

$failed = 0;
foreach ($scenario['steps'] as $step) {
    $client = $clients[$step['client'] ?? 'default'] ?? throw new RuntimeException('CV_TEST_API_KEY is not set');
    $args = $expand($step['args'] ?? []);
    $expect = $step['expect'] ?? [];
    $retries = $step['retries'] ?? null;
    try {
        try {
            $data = match ($step['op']) {
                'health' => $client->health($retries),
                'sendCode' => $sendCode($client, $args, $retries),
                'verifyCode' => $client->verifyCode($args['requestId'], $args['otpCode'] ?? null, $retries),
                'getVerification' => $client->getVerification($args['requestId'], $retries),
                'cancelVerification' => $client->cancelVerification($args['requestId'], $retries),
                'latestOutboxCode' => ['code' => $outbox->latestOutboxCode($args['to'])],
                'outboxCode' => $outboxCode($args['to']),
            };
        } catch (ApiException $e) {
            $want = $expect['error'] ?? throw $e;
            $got = [$e->getStatus(), $e->getErrorCode()?->value];
            if ($got !== [$want['status'], $want['code']]) {
                throw new RuntimeException("expected {$want['status']} {$want['code']}, got {$e->getMessage()}");
            }
            if (isset($want['retryAfterAtLeast']) && ($e->getRetryAfter() ?? 0) < $want['retryAfterAtLeast']) {
                throw new RuntimeException("expected retryAfter >= {$want['retryAfterAtLeast']}");
            }
            echo "ok   {$step['name']}\n";
            continue;
        }
        if (isset($expect['error'])) {
            throw new RuntimeException("expected {$expect['error']['code']}, got an answer");
        }
        // The library's values as the service's JSON spells them.
        $data = json_decode(json_encode($data, JSON_THROW_ON_ERROR), true, 512, JSON_THROW_ON_ERROR);
        if (array_key_exists('ok', $expect) && ($m = $mismatch($expand($expect['ok']), $data, 'data'))) {
            throw new RuntimeException($m);
        }
        foreach ($expect['present'] ?? [] as $path) {
            if ($pick($data, $path) === null) {
                throw new RuntimeException("data.{$path} is missing");
            }
        }
        foreach ($step['save'] ?? [] as $name => $path) {
            $vars[$name] = (string) $pick($data, $path);
        }
        echo "ok   {$step['name']}\n";
    } catch (Throwable $e) {
        $failed++;
        echo "FAIL {$step['name']}: {$e->getMessage()}\n";
    }
}
echo (count($scenario['steps']) - $failed) . " passed, {$failed} failed\n";
exit($failed === 0 ? 0 : 1);

<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Exception\ApiException;
use ContactVerify\Exception\NoOutboxCodeException;
use ContactVerify\Http\Transport;
use ContactVerify\Internal\Connection;

/**
 * For tests only: reads codes of test-mode sends (made with a cvk_test_ key) from the service's
 * outbox with the ADMIN token, so an automated test can verify without a mailbox or a phone.
 * Never give the admin token to production code.
 *
 *     $outbox = new TestHelper(baseUrl: getenv('CV_BASE_URL'), adminToken: getenv('CV_ADMIN_TOKEN'));
 *     $code = $outbox->latestOutboxCode('jane@example.com'); // '042817'
 */
final class TestHelper
{
    private readonly Connection $connection;

    public function __construct(string $baseUrl, string $adminToken, ?Transport $transport = null, float $timeout = 10.0)
    {
        $this->connection = new Connection($baseUrl, $adminToken, $timeout, $transport);
    }

    /**
     * The messages the outbox holds for $to (an address or a +phone number), newest first.
     *
     * @return list<OutboxMessage>
     * @throws ApiException
     */
    public function outbox(string $to, ?int $limit = null): array
    {
        $query = http_build_query(array_filter(['to' => $to, 'limit' => $limit], static fn ($v) => $v !== null));
        $answer = $this->connection->request('GET', "/v1/admin/outbox?{$query}");
        return array_map(OutboxMessage::fromArray(...), $answer['data']);
    }

    /**
     * The code of the newest message to $to.
     *
     * @throws NoOutboxCodeException when there is none, or when that message carries no code (a
     *   live request, or one no longer pending)
     * @throws ApiException
     */
    public function latestOutboxCode(string $to): string
    {
        $newest = $this->outbox($to, 1)[0] ?? throw new NoOutboxCodeException("The outbox holds no message to {$to}.");
        return $newest->code ?? throw new NoOutboxCodeException(
            "The newest message to {$to} carries no code: its request was not made with a test key, or it is no longer pending.",
        );
    }
}

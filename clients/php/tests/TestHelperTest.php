<?php

declare(strict_types=1);

namespace ContactVerify\Tests;

use ContactVerify\Channel;
use ContactVerify\Exception\AuthenticationException;
use ContactVerify\Exception\NoOutboxCodeException;
use ContactVerify\TestHelper;
use PHPUnit\Framework\TestCase;

/** TestHelper reads the newest outbox item's code field with the admin token. */
final class TestHelperTest extends TestCase
{
    /** @return array<string, string> */
    private static function item(?string $code): array
    {
        return array_filter([
            'id' => 'msg_1', 'accountId' => 'acc_default', 'requestId' => 'r1', 'status' => 'pending', 'channel' => 'SMS', 'to' => '+33612345678',
            'text' => 'Your code is 999999', 'code' => $code, 'createdAt' => '2030-01-01T00:00:00Z',
        ], static fn ($v) => $v !== null);
    }

    public function testReadsTheCodeFieldOfTheNewestItemNotItsText(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => [self::item('042817'), self::item('111111')]]));
        $helper = new TestHelper('https://cv.example', 'admin-token', $http);
        self::assertSame('042817', $helper->latestOutboxCode('+33 6 12 34 56 78'));
        $request = $http->requests[0];
        self::assertSame(['GET', 'https://cv.example/v1/admin/outbox?to=%2B33+6+12+34+56+78&limit=1'], [$request->method, $request->url]);
        self::assertSame('Bearer admin-token', $request->headers['Authorization']);
    }

    public function testNoMessageIsATypedException(): void
    {
        $helper = new TestHelper('http://x', 't', new ScriptedTransport(ScriptedTransport::answer(200, ['data' => []])));
        $this->expectException(NoOutboxCodeException::class);
        $this->expectExceptionMessage('no message to a@x.io');
        $helper->latestOutboxCode('a@x.io');
    }

    public function testAMessageWithoutCodeIsATypedException(): void
    {
        $helper = new TestHelper('http://x', 't', new ScriptedTransport(ScriptedTransport::answer(200, ['data' => [self::item(null)]])));
        $this->expectException(NoOutboxCodeException::class);
        $this->expectExceptionMessage('carries no code');
        $helper->latestOutboxCode('a@x.io');
    }

    public function testAWrongAdminTokenIsTheServicesError(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(401, ScriptedTransport::error('UNAUTHORIZED')));
        $this->expectException(AuthenticationException::class);
        (new TestHelper('http://x', 'wrong', $http))->latestOutboxCode('a@x.io');
    }

    public function testOutboxListsTypedMessages(): void
    {
        $http = new ScriptedTransport(ScriptedTransport::answer(200, ['data' => [self::item('042817')]]));
        $messages = (new TestHelper('http://x', 't', $http))->outbox('+33612345678');
        self::assertSame([Channel::Sms, '042817'], [$messages[0]->channel, $messages[0]->code]);
        self::assertEquals(new \DateTimeImmutable('2030-01-01T00:00:00Z'), $messages[0]->createdAt);
    }
}

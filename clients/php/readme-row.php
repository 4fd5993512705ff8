<?php

// The PHP row of the main README's client table, as a program: test/clients.readme-snippets.test.ts
// puts the row in place of the marker line below. $cv and $email are made before it; $otpCode is
// what the user would type, read from the outbox when the row's verify takes it as a string,
// after its send (this file is not strict_types, so the object is converted then).
require __DIR__ . '/vendor/autoload.php';

use ContactVerify\Channel;
use ContactVerify\Client;
use ContactVerify\TestHelper;

$cv = new Client(getenv('CV_BASE_URL'), getenv('CV_API_KEY'));
$email = 'row.' . bin2hex(random_bytes(4)) . '@example.com';
$otpCode = new class (new TestHelper(getenv('CV_BASE_URL'), getenv('CV_ADMIN_TOKEN')), $email) {
    public function __construct(private TestHelper $outbox, private string $to)
    {
    }

    public function __toString(): string
    {
        return $this->outbox->latestOutboxCode($this->to);
    }
};

README_ROW;
echo $r->status->value, "\n";

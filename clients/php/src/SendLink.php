<?php

declare(strict_types=1);

namespace ContactVerify;

use ContactVerify\Internal\Wire;

/**
 * send-code's link option (EMAIL only; the service needs PUBLIC_BASE_URL): the email carries a
 * magic link beside the code, and the first of the two used consumes both.
 *
 *     new SendLink()                                         // ends on the service's "verified" page
 *     new SendLink(redirectUrl: 'https://app.example.com/welcome') // then your page, with requestId
 */
final class SendLink implements \JsonSerializable
{
    public function __construct(
        /** An https: URL whose origin is one of the account's linkRedirectOrigins; null: the service's page. */
        public readonly ?string $redirectUrl = null,
    ) {
    }

    /** @return array<string, mixed>|object as the service reads it: {} without a redirect */
    public function jsonSerialize(): array|object
    {
        $fields = Wire::compact(['redirectUrl' => $this->redirectUrl]);
        return $fields === [] ? new \stdClass() : $fields;
    }
}

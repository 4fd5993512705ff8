<?php

declare(strict_types=1);

namespace ContactVerify\Exception;

/** 4xx: the request must change (VALIDATION_ERROR, CONTACT_BLOCKED, …). Never retried. */
class ClientException extends ApiException
{
}

<?php
use PHPUnit\Framework\TestCase;

final class CalcTest extends TestCase
{
    public function testAdds(): void
    {
        $this->assertSame(3, add(1, 2));
    }

    public function testAddsNegatives(): void
    {
        $this->assertSame(-5, add(-2, -3));
    }

    public function testLater(): void
    {
        $this->markTestSkipped('not yet');
    }

    public function testHalfDone(): void
    {
        $this->markTestIncomplete('half done');
    }
}

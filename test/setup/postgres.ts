process.env.ANVIL_TEST_DB = 'postgres';

// The demo function: reports where its resources live.
exports.handler = async () => ({
  statusCode: 200,
  body: JSON.stringify({ bucket: process.env.BUCKET_NAME, table: process.env.TABLE_NAME }),
});
